// The GraphQL operations the app sends, in one place.

const TASK_FIELDS = `id version householdId kind title notes priority deadline estimateMinutes assigneeId
  startsAt endsAt location occursAt completed completedAt reminderId remindAt reminderDueAt updatedAt
  labels { id } subtasks { id title done position }`;

export const ME = `query Me { me { id email displayName preferences { timeZone lastHouseholdId theme } permissions } }`;

const AUTH = `token user { id email displayName }`;
export const SIGN_UP = `mutation SignUp($input: SignUpInput!) { signUp(input: $input) { ${AUTH} } }`;
export const SIGN_IN = `mutation SignIn($email: String!, $password: String!, $device: String) {
  signIn(email: $email, password: $password, deviceName: $device) { ${AUTH} } }`;
export const SIGN_OUT = `mutation { signOut }`;
export const SIGN_OUT_EVERYWHERE = `mutation { signOutEverywhere }`;
export const SET_TIME_ZONE = `mutation Zone($zone: String!) { updatePreferences(input: {timeZone: $zone}) { timeZone } }`;
export const SET_LAST_HOUSEHOLD = `mutation Last($id: UUID) { updatePreferences(input: {lastHouseholdId: $id}) { lastHouseholdId } }`;

export const HOUSEHOLDS = `query { households(first: 100) { edges { node { id version name description timeZone myRole } } } }`;
export const HOUSEHOLD_SIZE = `query Size($id: UUID!) { household(id: $id) {
  tasks(first: 1) { totalCount } members(first: 1) { totalCount } labels { id } } }`;
export const CREATE_HOUSEHOLD = `mutation Create($input: CreateHouseholdInput!) { createHousehold(input: $input) { id name timeZone } }`;
export const UPDATE_HOUSEHOLD = `mutation Update($id: UUID!, $input: UpdateHouseholdInput!) { updateHousehold(id: $id, input: $input) { id version } }`;
export const DELETE_HOUSEHOLD = `mutation Delete($id: UUID!) { deleteHousehold(id: $id) }`;
export const LEAVE_HOUSEHOLD = `mutation Leave($id: UUID!) { leaveHousehold(householdId: $id) }`;
export const TRANSFER = `mutation Transfer($id: UUID!, $user: UUID!) { transferOwnership(householdId: $id, userId: $user) { id } }`;
export const CHANGE_ROLE = `mutation Role($id: UUID!, $user: UUID!, $role: HouseholdRole!) {
  changeMemberRole(householdId: $id, userId: $user, role: $role) { role } }`;
export const REMOVE_MEMBER = `mutation Remove($id: UUID!, $user: UUID!) { removeMember(householdId: $id, userId: $user) }`;
export const INVITATIONS = `query Invitations($id: UUID!) { invitations(householdId: $id, first: 50) {
  edges { node { id role state expiresAt maxUses } } } }`;
export const CREATE_INVITATION = `mutation Invite($id: UUID!, $role: HouseholdRole!) {
  createInvitation(householdId: $id, role: $role) { code invitation { id role state expiresAt } } }`;
export const REVOKE_INVITATION = `mutation Revoke($id: UUID!) { revokeInvitation(id: $id) { id state } }`;
export const ACCEPT_INVITATION = `mutation Accept($code: String!) { acceptInvitation(code: $code) { id name } }`;

export const SYNC = `query Sync($household: UUID!, $after: String, $first: Int, $client: UUID) {
  sync(householdId: $household, after: $after, first: $first, clientId: $client) {
    cursor hasMore lastMutationId
    changes { type id version deleted record {
      ... on Household { id version name description timeZone myRole }
      ... on Member { version role joinedAt user { id displayName } }
      ... on Label { id version householdId name color }
      ... on Task { ${TASK_FIELDS} }
      ... on Store { id version householdId name domain }
      ... on Product { id version storeId title }
      ... on StoreEvent { version storeId type productTitle createdAt read }
      ... on Notification { id version householdId title body notificationKind: kind taskId read createdAt }
    } } } }`;

export const PUSH = `mutation Push($client: UUID!, $mutations: [ClientMutation!]!) {
  push(clientId: $client, mutations: $mutations) { lastMutationId results { id status code message fields version } } }`;

export const SYNC_AVAILABLE = `subscription Poke($household: UUID!) { syncAvailable(householdId: $household) { householdId cursor } }`;

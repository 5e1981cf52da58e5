// The GraphQL operations the app sends, in one place.

const TASK_FIELDS = `id version householdId kind title notes priority deadline estimateMinutes assigneeId
  startsAt endsAt location occursAt completed completedAt reminderId remindAt reminderDueAt updatedAt
  labels { id } subtasks { id title done position }
  occurrence upcoming(first: 5) repeat { rule from exceptions start overrides { occurrence startsAt endsAt title notes location } } rotation { memberIds current }
  lastCompletion { occurrence completedAt completedBy }`;

const STORE_FIELDS = `id version householdId name domain currency url createdAt
  syncStatus { state lastSyncedAt nextSyncAt lastError { code message suggestion } }`;
const PRODUCT_FIELDS = `id version storeId title handle url vendor productType tags images { src } minPrice maxPrice available
  lastChangedAt removedAt variants { id title price compareAtPrice available }`;
// A store event's id is an ID (the change carries it): asked beside UUID ids it would conflict.
const EVENT_FIELDS = `version storeId storeName productId productTitle variantTitle type oldPrice newPrice priceDelta magnitude createdAt read`;

export const ME = `query Me { me { id email displayName isAdmin preferences { timeZone lastHouseholdId theme } permissions } }`;

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
      ... on Member { version role joinedAt awayUntil user { id displayName } }
      ... on Label { id version householdId name color }
      ... on Task { ${TASK_FIELDS} }
      ... on Store { ${STORE_FIELDS} }
      ... on Product { ${PRODUCT_FIELDS} }
      ... on StoreEvent { ${EVENT_FIELDS} }
      ... on Notification { id version householdId notificationStoreId: storeId title body notificationKind: kind taskId read createdAt }
    } } } }`;

export const PUSH = `mutation Push($client: UUID!, $mutations: [ClientMutation!]!) {
  push(clientId: $client, mutations: $mutations) { lastMutationId results { id status code message fields version } } }`;

export const SYNC_AVAILABLE = `subscription Poke($household: UUID!, $client: UUID) { syncAvailable(householdId: $household, clientId: $client) { householdId cursor fromYourPush } }`;

export const SERVER_INFO = `query { serverInfo { version startedAt webPushPublicKey } }`;

export const ADD_STORE = `mutation AddStore($household: UUID!, $domain: String!) { addStore(householdId: $household, domain: $domain) { ${STORE_FIELDS} } }`;
export const RENAME_STORE = `mutation RenameStore($id: UUID!, $name: String!) { renameStore(id: $id, name: $name) { id name } }`;
export const REMOVE_STORE = `mutation RemoveStore($id: UUID!) { removeStore(id: $id) }`;
export const SYNC_STORE = `mutation SyncStore($id: UUID!) { syncStore(id: $id) { ${STORE_FIELDS} } }`;
export const MARK_ALL_READ = `mutation MarkAll($household: UUID!, $store: UUID) { markAllEventsRead(householdId: $household, storeId: $store) }`;
export const REMOVED_PRODUCTS = `query Removed($store: UUID!, $after: String) { store(id: $store) {
  products(includeRemoved: true, sort: RECENTLY_CHANGED, first: 100, after: $after) {
    pageInfo { hasNextPage endCursor } edges { node { ${PRODUCT_FIELDS} } } } } }`;
export const PRICE_HISTORY = `query History($id: UUID!) { product(id: $id) { id priceHistory(first: 200) { variantId price available recordedAt } } }`;

export const HEALTH = `query Health { health { name isHealthy lastChecked errors responseTimeMs details } }`;
export const REGISTER_PUSH = `mutation Push($input: PushSubscriptionInput!) { registerPushSubscription(input: $input) { id name } }`;

const PREFERENCES = `theme timeZone priceDropThreshold priceIncreaseThreshold quietHours { from to }
  notifications { enabled reminders taskAssigned membership priceDropped priceIncreased backInStock outOfStock newProduct productRemoved imagesChanged }`;
const CHANNEL = `id kind name enabled disabledReason createdAt lastSuccessAt lastFailureAt lastFailure consecutiveFailures`;
const TOKEN = `id name scopes createdAt expiresAt lastUsedAt`;
export const PREFERENCES_QUERY = `query Preferences { me { id displayName preferences { ${PREFERENCES} } } }`;
export const UPDATE_PREFERENCES = `mutation Preferences($input: PreferencesInput!) { updatePreferences(input: $input) { ${PREFERENCES} } }`;
export const UPDATE_PROFILE = `mutation Profile($name: String!) { updateProfile(displayName: $name) { id displayName } }`;
export const CHANGE_PASSWORD = `mutation Password($current: String!, $next: String!, $revoke: Boolean!) { changePassword(currentPassword: $current, newPassword: $next, revokeAccessTokens: $revoke) }`;
export const EXPORT_PREFERENCES = `query { exportPreferences }`;
export const IMPORT_PREFERENCES = `mutation Import($preferences: JSON!) { importPreferences(preferences: $preferences) { ${PREFERENCES} } }`;
export const CHANNELS = `query Channels { channels { ${CHANNEL} } }`;
export const CHANNEL_LOG = `query Log { channels { id log { at status latencyMs outcome error } } }`;
export const ADD_NTFY = `mutation Ntfy($input: NtfyChannelInput!) { addNtfyChannel(input: $input) { ${CHANNEL} } }`;
export const ADD_WEBHOOK = `mutation Webhook($input: WebhookInput!) { addWebhook(input: $input) { secret channel { ${CHANNEL} } } }`;
export const TEST_CHANNEL = `mutation Test($id: UUID!) { testChannel(id: $id) }`;
export const REMOVE_CHANNEL = `mutation RemoveChannel($id: UUID!) { removeChannel(id: $id) }`;
export const ACCESS_TOKENS = `query Tokens { accessTokens { ${TOKEN} } }`;
export const CREATE_ACCESS_TOKEN = `mutation Token($input: AccessTokenInput!) { createAccessToken(input: $input) { token accessToken { ${TOKEN} } } }`;
export const REVOKE_ACCESS_TOKEN = `mutation Revoke($id: UUID!) { revokeAccessToken(id: $id) { id } }`;

export const RECURRENCE_PREVIEW = `query Preview($rule: String!, $start: DateTime!, $zone: String!) {
  recurrencePreview(rule: $rule, start: $start, timeZone: $zone, first: 3) }`;
export const SET_AWAY = `mutation Away($id: UUID!, $until: DateTime) { setAway(householdId: $id, until: $until) { awayUntil } }`;
export const CHORE_STATS = `query Chores($id: UUID!, $from: DateTime!, $to: DateTime!) { household(id: $id) {
  choreStats(from: $from, to: $to) { byMember { userId completions } byTask { taskId title completions } } } }`;

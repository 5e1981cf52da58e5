// Households and their people (online only): create, rename, delete or leave one; roles, ownership
// and invitations. Each call asks for a sync, which brings the household's records to the replica.

import * as ops from "../api/operations.js";

/** @typedef {import("../app.js").App} App */

/**
 * @param {App} app
 * @param {string} name
 * @param {string} timeZone
 */
export async function createHousehold(app, name, timeZone) {
  /** @type {{createHousehold: {id: string}}} */
  const data = await app.api.request(ops.CREATE_HOUSEHOLD, { input: { name, timeZone } });
  await app.refreshAccount();
  await app.selectHousehold(data.createHousehold.id);
  app.wantSync();
}

/**
 * @param {App} app
 * @param {{name?: string, description?: string, timeZone?: string}} input
 */
export async function updateHousehold(app, input) {
  await app.api.request(ops.UPDATE_HOUSEHOLD, { id: app.householdId, input });
  await app.refreshAccount();
  app.wantSync();
}

/** @param {App} app */
export async function deleteHousehold(app) {
  const id = app.householdId;
  await app.api.request(ops.DELETE_HOUSEHOLD, { id });
  if (id) await app.replica?.removeHousehold(id);
  await app.refreshAccount();
}

/** @param {App} app */
export async function leaveHousehold(app) {
  const id = app.householdId;
  await app.api.request(ops.LEAVE_HOUSEHOLD, { id });
  if (id) await app.replica?.removeHousehold(id);
  await app.refreshAccount();
}

/**
 * @param {App} app
 * @param {string} userId
 */
export async function transferOwnership(app, userId) {
  await app.api.request(ops.TRANSFER, { id: app.householdId, user: userId });
  await app.refreshAccount();
  app.wantSync();
}

/**
 * @param {App} app
 * @param {string} userId
 * @param {string} role
 */
export async function changeRole(app, userId, role) {
  await app.api.request(ops.CHANGE_ROLE, { id: app.householdId, user: userId, role });
  app.wantSync();
}

/**
 * @param {App} app
 * @param {string} userId
 */
export async function removeMember(app, userId) {
  await app.api.request(ops.REMOVE_MEMBER, { id: app.householdId, user: userId });
  app.wantSync();
}

/**
 * @param {App} app
 * @returns {Promise<{id: string, role: string, state: string, expiresAt: string}[]>}
 */
export async function invitations(app) {
  /** @type {{invitations: {edges: {node: any}[]}}} */
  const data = await app.api.request(ops.INVITATIONS, { id: app.householdId });
  return data.invitations.edges.map((edge) => edge.node);
}

/**
 * An invitation's link (its code is shown this once).
 * @param {App} app
 * @param {string} role
 */
export async function invite(app, role = "MEMBER") {
  /** @type {{createInvitation: {code: string}}} */
  const data = await app.api.request(ops.CREATE_INVITATION, { id: app.householdId, role });
  return `${location.origin}/join/${encodeURIComponent(data.createInvitation.code)}`;
}

/**
 * @param {App} app
 * @param {string} id
 */
export async function revokeInvitation(app, id) {
  await app.api.request(ops.REVOKE_INVITATION, { id });
}

/**
 * @param {App} app
 * @param {string} code
 */
export async function acceptInvitation(app, code) {
  /** @type {{acceptInvitation: {id: string}}} */
  const data = await app.api.request(ops.ACCEPT_INVITATION, { code });
  await app.refreshAccount();
  await app.selectHousehold(data.acceptInvitation.id);
  app.wantSync();
}

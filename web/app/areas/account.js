// The signed-in person's own settings, read from and written to the API (online only): profile and
// password, preferences (theme, zone, notifications, thresholds, quiet hours; export and import),
// notification channels and access tokens. Knows nothing of the DOM.

import * as ops from "../api/operations.js";

/** @typedef {import("../api/graphql.js").GraphQLClient} GraphQLClient */
/**
 * @typedef {{theme: "SYSTEM" | "LIGHT" | "DARK", timeZone: string | null, priceDropThreshold: string, priceIncreaseThreshold: string,
 *   quietHours: {from: string, to: string} | null, notifications: Record<string, boolean>}} Preferences
 * @typedef {{id: string, kind: "WEB_PUSH" | "NTFY" | "WEBHOOK", name: string, enabled: boolean, disabledReason: string | null,
 *   createdAt: string, lastSuccessAt: string | null, lastFailureAt: string | null, lastFailure: string | null, consecutiveFailures: number}} Channel
 * @typedef {{at: string, status: number | null, latencyMs: number, outcome: string, error: string | null}} DeliveryAttempt
 * @typedef {{id: string, name: string, scopes: string[], createdAt: string, expiresAt: string, lastUsedAt: string | null}} AccessToken
 */

export class Account {
  /** @param {GraphQLClient} api */
  constructor(api) {
    this.api = api;
  }

  /** @returns {Promise<{displayName: string, preferences: Preferences}>} */
  async profile() {
    /** @type {{me: {displayName: string, preferences: Preferences} | null}} */
    const data = await this.api.request(ops.PREFERENCES_QUERY);
    if (!data.me) throw new Error("Your session has ended: please sign in again.");
    return data.me;
  }

  /**
   * Changes only the preferences given.
   * @param {Record<string, unknown>} input
   * @returns {Promise<Preferences>}
   */
  async updatePreferences(input) {
    /** @type {{updatePreferences: Preferences}} */
    const data = await this.api.request(ops.UPDATE_PREFERENCES, { input });
    return data.updatePreferences;
  }

  /** @param {string} name */
  async rename(name) {
    await this.api.request(ops.UPDATE_PROFILE, { name });
  }

  /**
   * Every other session is signed out; this one stays.
   * @param {string} current
   * @param {string} next
   * @param {boolean} revokeAccessTokens also revoke access tokens and calendar feed links
   */
  async changePassword(current, next, revokeAccessTokens) {
    await this.api.request(ops.CHANGE_PASSWORD, { current, next, revoke: revokeAccessTokens });
  }

  /** The preferences as one JSON document. */
  async exportPreferences() {
    /** @type {{exportPreferences: unknown}} */
    const data = await this.api.request(ops.EXPORT_PREFERENCES);
    return data.exportPreferences;
  }

  /**
   * @param {unknown} preferences an exported document
   * @returns {Promise<Preferences>}
   */
  async importPreferences(preferences) {
    /** @type {{importPreferences: Preferences}} */
    const data = await this.api.request(ops.IMPORT_PREFERENCES, { preferences });
    return data.importPreferences;
  }

  /** @returns {Promise<Channel[]>} */
  async channels() {
    /** @type {{channels: Channel[]}} */
    const data = await this.api.request(ops.CHANNELS);
    return data.channels;
  }

  /**
   * A channel's recent deliveries.
   * @param {string} id
   * @returns {Promise<DeliveryAttempt[]>}
   */
  async channelLog(id) {
    /** @type {{channels: {id: string, log: DeliveryAttempt[]}[]}} */
    const data = await this.api.request(ops.CHANNEL_LOG);
    return data.channels.find((channel) => channel.id === id)?.log ?? [];
  }

  /** @param {{serverUrl: string, topic: string, accessToken?: string}} input */
  async addNtfy(input) {
    await this.api.request(ops.ADD_NTFY, { input });
  }

  /**
   * A webhook; its signing secret is returned this once.
   * @param {string} url
   * @returns {Promise<string>}
   */
  async addWebhook(url) {
    /** @type {{addWebhook: {secret: string}}} */
    const data = await this.api.request(ops.ADD_WEBHOOK, { input: { url } });
    return data.addWebhook.secret;
  }

  /** @param {string} id */
  async testChannel(id) {
    await this.api.request(ops.TEST_CHANNEL, { id });
  }

  /** @param {string} id */
  async removeChannel(id) {
    await this.api.request(ops.REMOVE_CHANNEL, { id });
  }

  /** @returns {Promise<AccessToken[]>} */
  async accessTokens() {
    /** @type {{accessTokens: AccessToken[]}} */
    const data = await this.api.request(ops.ACCESS_TOKENS);
    return data.accessTokens;
  }

  /**
   * A token for another program; the token itself is returned this once.
   * @param {{name: string, scopes: string[], expiresInDays: number}} input
   * @returns {Promise<string>}
   */
  async createAccessToken(input) {
    /** @type {{createAccessToken: {token: string}}} */
    const data = await this.api.request(ops.CREATE_ACCESS_TOKEN, { input });
    return data.createAccessToken.token;
  }

  /** @param {string} id */
  async revokeAccessToken(id) {
    await this.api.request(ops.REVOKE_ACCESS_TOKEN, { id });
  }
}

// GraphQL over HTTP: one POST per operation, with the session's token. The only module that calls `fetch`.

/** An answer the API refused, or no answer at all (`code` NETWORK). */
export class ApiError extends Error {
  /**
   * @param {string} code `extensions.code`, or NETWORK when the server could not be reached
   * @param {string} message words for a person
   * @param {string | undefined} field the input field at fault, when the API names one
   * @param {Record<string, unknown>} extensions
   */
  constructor(code, message, field = undefined, extensions = {}) {
    super(message);
    this.code = code;
    this.field = field;
    this.extensions = extensions;
  }

  /** Whether the server was not reached (offline, or it is down): worth trying again later. */
  get unreachable() {
    return this.code === "NETWORK" || this.code === "SERVICE_UNAVAILABLE";
  }
}

export class GraphQLClient {
  /** @param {() => string | null} token the current session's token, read at each request */
  constructor(token, endpoint = "/graphql") {
    this.token = token;
    this.endpoint = endpoint;
  }

  /**
   * Runs one operation as given and returns the whole answer (data and errors) with its HTTP status,
   * as the API explorer shows it.
   * @param {string} query
   * @param {Record<string, unknown>} variables
   * @param {string | undefined} operationName
   * @returns {Promise<{status: number, body: unknown}>}
   */
  async raw(query, variables, operationName) {
    const response = await this.post({ query, variables, operationName });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch {
      return { status: response.status, body: text };
    }
  }

  /**
   * Runs one operation and returns its `data`; the first error is thrown as an ApiError.
   * @template T
   * @param {string} query
   * @param {Record<string, unknown>} [variables]
   * @returns {Promise<T>}
   */
  async request(query, variables = {}) {
    const response = await this.post({ query, variables });
    /** @type {{data?: any, errors?: {message: string, extensions?: Record<string, unknown>}[]}} */
    let body;
    try {
      body = await response.json();
    } catch {
      throw new ApiError(response.status >= 500 ? "SERVICE_UNAVAILABLE" : "BAD_RESPONSE", `Hearth answered ${response.status} without a result.`);
    }
    const error = body.errors?.[0];
    if (error) {
      const extensions = error.extensions ?? {};
      const field = typeof extensions.field === "string" ? extensions.field : undefined;
      throw new ApiError(String(extensions.code ?? "ERROR"), error.message, field, extensions);
    }
    return /** @type {T} */ (body.data);
  }

  /**
   * POSTs one GraphQL request with the session's token; not reaching Hearth is an ApiError (NETWORK).
   * @param {{query: string, variables: Record<string, unknown>, operationName?: string}} body
   * @returns {Promise<Response>}
   */
  async post(body) {
    /** @type {Record<string, string>} */
    const headers = { "Content-Type": "application/json", Accept: "application/graphql-response+json, application/json" };
    const token = this.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      return await fetch(this.endpoint, { method: "POST", headers, body: JSON.stringify(body) });
    } catch {
      throw new ApiError("NETWORK", "Hearth cannot be reached: you seem to be offline.");
    }
  }
}

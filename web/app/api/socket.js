// One graphql-transport-ws socket: subscriptions that survive reconnects (back-off with jitter).

const PROTOCOL = "graphql-transport-ws";

/**
 * @typedef {{query: string, variables: Record<string, unknown>, operationName?: string,
 *   onNext: (data: any, payload: {data?: any, errors?: any[]}) => void, onEnd?: (errors?: any[]) => void}} Subscription
 */

export class PokeSocket extends EventTarget {
  /**
   * @param {() => string | null} token
   * @param {string} [url] defaults to this page's origin, `/graphql`
   */
  constructor(token, url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`) {
    super();
    this.token = token;
    this.url = url;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {Map<string, Subscription>} */
    this.subscriptions = new Map();
    this.acknowledged = false;
    this.attempt = 0;
    this.wanted = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    this.nextId = 1;
  }

  /** Opens the socket (and keeps it open, reconnecting) until `stop`. */
  start() {
    this.wanted = true;
    if (!this.socket) this.connect();
  }

  stop() {
    this.wanted = false;
    clearTimeout(this.retryTimer);
    this.socket?.close(1000, "closed by the app");
    this.socket = null;
    this.acknowledged = false;
  }

  /**
   * Subscribes; the subscription is renewed after each reconnect. Returns the function that ends it.
   * @param {string} query
   * @param {Record<string, unknown>} variables
   * @param {(data: any, payload: {data?: any, errors?: any[]}) => void} onNext the event's data (and its whole payload)
   * @param {(errors?: any[]) => void} [onEnd] the server ended it (complete, or error with its errors): it is not renewed
   * @param {string} [operationName]
   */
  subscribe(query, variables, onNext, onEnd, operationName) {
    const id = String(this.nextId++);
    this.subscriptions.set(id, { query, variables, onNext, onEnd, operationName });
    if (this.acknowledged) this.send({ id, type: "subscribe", payload: { query, variables, operationName } });
    return () => {
      this.subscriptions.delete(id);
      if (this.acknowledged) this.send({ id, type: "complete" });
    };
  }

  /** @param {object} message */
  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  connect() {
    const socket = new WebSocket(this.url, PROTOCOL);
    this.socket = socket;
    socket.addEventListener("open", () => {
      const token = this.token();
      socket.send(JSON.stringify({ type: "connection_init", payload: token ? { token } : {} }));
    });
    socket.addEventListener("message", (event) => {
      /** @type {{type: string, id?: string, payload?: any}} */
      let message;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === "connection_ack") {
        this.acknowledged = true;
        this.attempt = 0;
        for (const [id, sub] of this.subscriptions) {
          this.send({ id, type: "subscribe", payload: { query: sub.query, variables: sub.variables, operationName: sub.operationName } });
        }
        this.dispatchEvent(new Event("open"));
      } else if (message.type === "ping") {
        this.send({ type: "pong" });
      } else if (message.type === "next" && message.id) {
        this.subscriptions.get(message.id)?.onNext(message.payload?.data, message.payload ?? {});
      } else if ((message.type === "error" || message.type === "complete") && message.id) {
        // The server ended the subscription (the person may have lost access): it is not renewed.
        const ended = this.subscriptions.get(message.id);
        this.subscriptions.delete(message.id);
        ended?.onEnd?.(message.type === "error" ? message.payload : undefined);
      }
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      const wasOpen = this.acknowledged;
      this.socket = null;
      this.acknowledged = false;
      if (wasOpen) this.dispatchEvent(new Event("close"));
      if (!this.wanted) return;
      // Exponential back-off from 0.5 s to 30 s, with full jitter so a household's devices do not return together.
      const ceiling = Math.min(30_000, 500 * 2 ** this.attempt++);
      this.retryTimer = setTimeout(() => { if (this.wanted && !this.socket) this.connect(); }, Math.random() * ceiling);
    });
  }

  /** Reconnects now (the browser came back online). */
  retryNow() {
    if (!this.wanted || this.socket) return;
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.connect();
  }
}

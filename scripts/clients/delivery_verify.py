"""Independent checks of what Hearth sends to notification channels, with the PyPI packages that
implement the standards (run from .build/python-webpush): Web Push message decryption (RFC 8291,
`http_ece`), the VAPID Authorization header (RFC 8292, `py_vapid`) and Standard Webhooks
signatures (`standardwebhooks`).

As a program: one JSON request as the argument (or on stdin), one JSON answer on stdout.
  {"check": "webpush", "body": <base64>, "privateKey": <base64url d>, "auth": <base64url>,
   "authorization": <header>, "endpoint": <url>, "subject": <expected sub>}
    -> {"plaintext": <text>, "vapid": true, "claims": {...}} or {"error": ...}
  {"check": "webhook", "secret": "whsec_...", "headers": {...}, "body": <text>}
    -> {"verified": true, "payload": {...}} or {"error": ...}
"""
import base64, json, sys, time
from urllib.parse import urlsplit


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def webpush(request):
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid02

    private = ec.derive_private_key(int.from_bytes(b64url(request["privateKey"]), "big"), ec.SECP256R1())
    plaintext = http_ece.decrypt(base64.b64decode(request["body"]), private_key=private,
                                 auth_secret=b64url(request["auth"]), version="aes128gcm")
    header = request["authorization"]
    if not header.lower().startswith("vapid "):
        return {"error": "Authorization is not the vapid scheme: %s" % header[:40]}
    if not Vapid02.verify(header):
        return {"error": "the VAPID signature does not verify"}
    token = dict(part.split("=", 1) for part in header[len("vapid "):].replace(" ", "").split(","))["t"]
    claims = json.loads(b64url(token.split(".")[1]))
    endpoint = urlsplit(request["endpoint"])
    origin = "%s://%s" % (endpoint.scheme, endpoint.netloc)
    if claims.get("aud") != origin:
        return {"error": "aud %r is not the endpoint's origin %r" % (claims.get("aud"), origin)}
    if not (time.time() < claims.get("exp", 0) <= time.time() + 24 * 3600):
        return {"error": "exp %r is not within the next 24 hours" % claims.get("exp")}
    if claims.get("sub") != request["subject"]:
        return {"error": "sub %r is not %r" % (claims.get("sub"), request["subject"])}
    return {"plaintext": plaintext.decode(), "vapid": True, "claims": claims}


def webhook(request):
    from standardwebhooks.webhooks import Webhook, WebhookVerificationError
    try:
        payload = Webhook(request["secret"]).verify(request["body"], request["headers"])
    except WebhookVerificationError as error:
        return {"error": str(error)}
    return {"verified": True, "payload": payload}


if __name__ == "__main__":
    request = json.loads(sys.argv[1]) if len(sys.argv) > 1 else json.load(sys.stdin)
    try:
        answer = {"webpush": webpush, "webhook": webhook}[request["check"]](request)
    except Exception as error:  # a failure to verify is an answer, not a crash
        answer = {"error": "%s: %s" % (type(error).__name__, error)}
    json.dump(answer, sys.stdout)

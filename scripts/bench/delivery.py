"""Drives scripts/bench/delivery.sh: three channels for one person, `count` notifications queued
through the outbox at once, the time until every delivery is sent, then the raw POST rate."""
import base64, os, subprocess, sys, time

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
from hearth_graphql import client

url, data_dir, count, sink = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
graphql = client(url, timeout=120)
token = graphql('mutation { signUp(input: {email: "delivery@example.org", password: "correct horse", displayName: "Bench"}) { token } }')["signUp"]["token"]
household = graphql('mutation { createHousehold(input: {name: "Bench", timeZone: "UTC"}) { id } }', token=token)["createHousehold"]["id"]

browser = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
b64 = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("=")
graphql('mutation($i: PushSubscriptionInput!) { registerPushSubscription(input: $i) { id } }',
        {"i": {"endpoint": sink + "/sink/push", "keys": {"p256dh": b64(browser), "auth": b64(os.urandom(16))}}}, token)
graphql('mutation($i: NtfyChannelInput!) { addNtfyChannel(input: $i) { id } }', {"i": {"serverUrl": sink + "/sink", "topic": "bench"}}, token)
graphql('mutation($i: WebhookInput!) { addWebhook(input: $i) { secret } }', {"i": {"url": sink + "/sink/webhook"}}, token)

password = open(os.path.join(data_dir, "hearth.password")).read().strip()
env = dict(os.environ, PGPASSWORD=password)


def sql(text):
    return subprocess.run(["psql", "-At", "-v", "ON_ERROR_STOP=1", "-h", data_dir, "-U", "hearth", "hearth", "-c", text],
                          check=True, env=env, capture_output=True, text=True).stdout.strip()


# The outbox as a notification's transaction writes it: the rows, and a delivery per channel.
started = time.perf_counter()
sql(f"""
BEGIN;
INSERT INTO notifications (id, user_id, household_id, store_id, title, body, priority, counts, created_at, kind)
SELECT gen_random_uuid(), u.id, '{household}', NULL, 'Reminder ' || i, 'Due soon', 'NORMAL', '{{}}', now(), 'REMINDER'
FROM users u, generate_series(1, {count}) AS i WHERE u.email = 'delivery@example.org';
INSERT INTO deliveries (notification_id, channel_id, due_at, give_up_at, created_at)
SELECT n.id, c.id, now(), now() + interval '1 day', now() FROM notifications n JOIN delivery_channels c ON c.user_id = n.user_id;
COMMIT;
""")
total = int(sql("SELECT count(*) FROM deliveries"))
while True:
    left = int(sql("SELECT count(*) FROM deliveries WHERE state = 'PENDING'"))
    if left == 0:
        break
    time.sleep(0.05)
drained = time.perf_counter() - started
sent = int(sql("SELECT count(*) FROM deliveries WHERE state = 'SENT'"))

raw = subprocess.run([".build/release/hearth", "dev", "post-rate", "--url", sink + "/sink/raw", "--count", str(total), "--concurrency", "16"],
                     check=True, capture_output=True, text=True).stdout.strip()
raw_rate = float(raw.split(": ")[1].split(" ")[0])
print("| %d notifications × 3 channels | deliveries | time | per second | share of the limit |" % count)
print("|---|---:|---:|---:|---:|")
print("| outbox drained by the delivery loop | %d sent of %d | %.2f s | %.0f | %.0f %% |" % (sent, total, drained, total / drained, 100 * (total / drained) / raw_rate))
print("| raw POSTs, same client, same receiver (16 at once) | %d | %.2f s | %.0f | 100 %% |" % (total, total / raw_rate, raw_rate))

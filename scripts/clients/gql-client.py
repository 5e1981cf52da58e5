#!/usr/bin/env python3
"""Python's `gql` client (PyPI) against a running Hearth, with no Hearth-specific settings.

  gql-client.py http://127.0.0.1:PORT/graphql

Over HTTP (RequestsHTTPTransport) it fetches the schema by introspection
(fetch_schema_from_transport=True), runs `serverInfo`, and checks that gql refuses an unknown field
with the fetched schema. Over GET it sends a query with variables through `requests.get`, which
form-encodes URL parameters (a space is `+`), checking that the URL really carries `+`. (gql's own
`method="GET"` puts a JSON body on the GET, which is not GraphQL over HTTP.) Over WebSocket (WebsocketsTransport, subprotocol graphql-transport-ws) it
runs a query and takes two events of the `heartbeat` subscription. Prints one JSON line with what
it saw and exits 0, or prints the failure and exits 1.
"""
import asyncio
import json
import sys
from datetime import datetime

import requests
from gql import Client, gql
from gql.transport.requests import RequestsHTTPTransport
from gql.transport.websockets import WebsocketsTransport
from graphql import GraphQLError


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def over_http(url):
    transport = RequestsHTTPTransport(url=url, timeout=30, retries=0)
    with Client(transport=transport, fetch_schema_from_transport=True) as session:
        info = session.execute(gql("query Info { serverInfo { version startedAt } }"))["serverInfo"]
        schema = session.client.schema
        check(schema is not None, "no schema was fetched")
        check(schema.subscription_type is not None and "heartbeat" in schema.subscription_type.fields,
              "the fetched schema has no Subscription.heartbeat")
        check(schema.get_type("DateTime") is not None, "the fetched schema has no DateTime")
        try:
            session.execute(gql("{ serverInfo { uptime } }"))
            raise Failure("gql sent a query its fetched schema does not allow")
        except GraphQLError as error:
            refused = error.message
    started = datetime.fromisoformat(info["startedAt"].replace("Z", "+00:00"))
    check(started.tzinfo is not None, f"startedAt has no offset: {info['startedAt']}")
    return {"version": info["version"], "startedAt": info["startedAt"], "types": len(schema.type_map),
            "refusedLocally": refused}


def over_get(url):
    query = "query Info($v: Boolean!) { serverInfo @include(if: $v) { version } }"
    response = requests.get(url, params={"query": query, "variables": json.dumps({"v": True}), "operationName": "Info"},
                            headers={"Accept": "application/graphql-response+json"}, timeout=30)
    check("query=query+Info" in response.request.url, f"requests did not form-encode the query: {response.request.url}")
    check(response.status_code == 200, f"GET answered {response.status_code}: {response.text[:300]}")
    return {"version": response.json()["data"]["serverInfo"]["version"], "url": response.request.url}


async def over_websocket(url):
    transport = WebsocketsTransport(
        url=url.replace("http://", "ws://", 1), subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
        connect_timeout=10, close_timeout=5)
    async with Client(transport=transport, fetch_schema_from_transport=True) as session:
        check(transport.subprotocol == "graphql-transport-ws", f"negotiated {transport.subprotocol!r}")
        info = await session.execute(gql("{ serverInfo { version } }"))
        beats = []
        subscription = gql("subscription Beat { heartbeat(intervalSeconds: 1) { sequence at } }")
        async for result in session.subscribe(subscription):
            beats.append(result["heartbeat"])
            if len(beats) == 2:
                break
    check([beat["sequence"] for beat in beats] == [1, 2], f"heartbeats {beats}")
    return {"version": info["serverInfo"]["version"], "subprotocol": "graphql-transport-ws", "beats": beats}


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    url = sys.argv[1]
    try:
        http = over_http(url)
        get = over_get(url)
        websocket = asyncio.run(asyncio.wait_for(over_websocket(url), timeout=60))
    except Exception as error:  # noqa: BLE001 - every failure is reported the same way
        print(f"failed: {type(error).__name__}: {error}")
        sys.exit(1)
    print(json.dumps({"http": http, "get": get, "websocket": websocket}))


if __name__ == "__main__":
    main()

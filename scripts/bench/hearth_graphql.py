"""What the Hearth load benchmarks (stores.py, agenda.py) share: GraphQL over HTTP, and timing
one request many times."""
import json, statistics, sys, time, urllib.request


def client(url, timeout=600):
    """A function (query, variables, token) -> data against Hearth at `url`; exits on errors."""
    def graphql(query, variables=None, token=None):
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        request = urllib.request.Request(url + "/graphql", data=body, headers={"Content-Type": "application/json"})
        if token:
            request.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = json.load(response)
        if answer.get("errors"):
            sys.exit("GraphQL error: %s" % answer["errors"])
        return answer["data"]
    return graphql


def p50_p90(call, runs=100, warmup=10):
    """Milliseconds of `call()`: the median and the 90th percentile of `runs`, after `warmup`."""
    for _ in range(warmup):
        call()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(runs * 0.9) - 1]

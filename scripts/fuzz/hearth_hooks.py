"""Schemathesis hooks for fuzzing Hearth's GraphQL API (loaded through SCHEMATHESIS_HOOKS).

- Strategies for Hearth's `JSON` and `URL` scalars (Schemathesis knows only the built-in scalars).
- One check, `hearth_never_fails`, instead of Schemathesis' GraphQL `not_a_server_error` (which
  counts every `errors` entry, even `UNAUTHENTICATED` or `NOT_FOUND`, as a server failure): no 5xx
  but a `TIMEOUT` 503, no `INTERNAL_SERVER_ERROR`, and every error carries `extensions.code`.
"""
import schemathesis
from hypothesis import strategies as st
from schemathesis.graphql import nodes

# JSON values as GraphQL literals: strings, numbers, booleans, small lists and objects.
_leaf = st.one_of(
    st.text(max_size=20).map(nodes.String),
    st.integers(min_value=-(2**31), max_value=2**31 - 1).map(nodes.Int),
    st.booleans().map(nodes.Boolean),
)
schemathesis.graphql.scalar(
    "JSON",
    st.one_of(
        _leaf,
        st.lists(_leaf, max_size=3).map(nodes.List),
        st.just(nodes.Object([])),
    ),
)

# URLs: well-formed public and loopback ones, and arbitrary text (which must be refused cleanly).
schemathesis.graphql.scalar(
    "URL",
    st.one_of(
        st.sampled_from(["https://example.org/hook", "http://127.0.0.1:9/x", "https://ntfy.sh", "http://[::1]/push"]),
        st.text(max_size=40),
    ).map(nodes.String),
)


@schemathesis.check
def hearth_never_fails(ctx, response, case):
    """No 5xx but TIMEOUT, no INTERNAL_SERVER_ERROR, every error with a code."""
    try:
        body = response.json()
    except Exception:  # noqa: BLE001 - a body that is not JSON is a failure of its own
        raise AssertionError(f"status {response.status_code}, body is not JSON: {response.text[:200]!r}")
    errors = body.get("errors") or [] if isinstance(body, dict) else []
    codes = [((error or {}).get("extensions") or {}).get("code") for error in errors]
    if response.status_code >= 500 and not (response.status_code == 503 and codes == ["TIMEOUT"]):
        raise AssertionError(f"server error {response.status_code}: {response.text[:300]}")
    if "INTERNAL_SERVER_ERROR" in codes:
        raise AssertionError(f"INTERNAL_SERVER_ERROR: {response.text[:300]}")
    if any(code is None for code in codes):
        raise AssertionError(f"an error without extensions.code: {response.text[:300]}")

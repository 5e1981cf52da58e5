#!/usr/bin/env python3
"""The official Python MCP client (`mcp` on PyPI) against Hearth, driven by a plan given as its argument.

  mcp-client.py '<plan as JSON>'

The plan: {"url": "http://127.0.0.1:PORT/mcp", "token": "hpat_…", "calls": [{"tool": …, "arguments": {…}}]}
over Streamable HTTP, or {"stdio": ["/path/to/hearth", "mcp", "--url", …], "env": {"HEARTH_TOKEN": …}, "calls": […]}
over stdio. A call may instead be {"graphql": query, "variables": {…}, "token": …}: a GraphQL request
made between two calls (revoking the token, say); "origin" sends that Origin header. It initializes, lists the tools (checking each input and output schema is valid
JSON Schema), makes the calls in order, and prints one JSON line: the server's name, the tools,
and each call's result (isError, its text, its structured content; or the error the client raised). A failure to connect or a
protocol error prints {"failure": …} and exits 1.
"""
import asyncio
import json
import sys

import httpx2
import jsonschema
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client


async def run(session, plan):
    initialized = await session.initialize()
    listed = await session.list_tools()
    tools = []
    for tool in listed.tools:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        if tool.output_schema is not None:
            jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        tools.append({"name": tool.name, "inputSchema": tool.input_schema, "hasOutputSchema": tool.output_schema is not None})
    results = []
    for call in plan.get("calls", []):
        if "graphql" in call:
            # A GraphQL request between two calls (revoking the token, say), with its own token.
            async with httpx2.AsyncClient(headers={"Authorization": "Bearer " + call["token"]}, timeout=30) as http:
                answer = await http.post(plan["url"].rsplit("/mcp", 1)[0] + "/graphql", json={"query": call["graphql"], "variables": call.get("variables", {})})
                results.append({"graphql": answer.json()})
            continue
        try:
            result = await session.call_tool(call["tool"], call.get("arguments", {}))
        except Exception as error:  # a protocol or HTTP refusal, as the client reports it
            results.append({"tool": call["tool"], "error": repr(error)[:2000]})
            continue
        text = "\n".join(part.text for part in result.content if getattr(part, "type", "") == "text")
        results.append({"tool": call["tool"], "isError": bool(result.is_error), "text": text, "structured": result.structured_content})
    return {"server": initialized.server_info.name, "tools": tools, "results": results}


async def main():
    plan = json.loads(sys.argv[1])
    if "stdio" in plan:
        command = plan["stdio"]
        parameters = StdioServerParameters(command=command[0], args=command[1:], env=plan.get("env"))
        async with stdio_client(parameters) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                return await run(session, plan)
    headers = {"Authorization": "Bearer " + plan["token"]}
    if "origin" in plan:
        headers["Origin"] = plan["origin"]
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with streamable_http_client(plan["url"], http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                return await run(session, plan)


if __name__ == "__main__":
    try:
        print(json.dumps(asyncio.run(main())))
    except BaseException as error:  # an ExceptionGroup from anyio included
        print(json.dumps({"failure": repr(error)[:4000]}))
        sys.exit(1)

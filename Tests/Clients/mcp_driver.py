"""A real MCP client (the `mcp` package) driven line by line by a test.

    mcp_driver.py stdio COMMAND ARG...      the server as a child process, over stdio
    mcp_driver.py http URL TOKEN            the server's Streamable HTTP endpoint, with a bearer key

Each line on stdin is one JSON request; each answer is one JSON line on stdout:
    {"op": "list_tools"} · {"op": "call", "tool": T, "args": {...}} · {"op": "list_resources"}
    {"op": "list_templates"} · {"op": "read", "uri": U} · {"op": "list_prompts"}
    {"op": "prompt", "name": N, "args": {...}}
A protocol error is answered as {"error": "..."}; the session stays open.
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def dump(model):
    return json.loads(model.model_dump_json(by_alias=True, exclude_none=True))


async def serve(session):
    await session.initialize()
    print(json.dumps({"ready": True}), flush=True)
    while True:
        line = await asyncio.to_thread(sys.stdin.readline)
        if not line:
            return
        request = json.loads(line)
        op = request["op"]
        try:
            if op == "list_tools":
                answer = dump(await session.list_tools())
            elif op == "call":
                result = await session.call_tool(request["tool"], request.get("args", {}))
                answer = {
                    "isError": bool(result.is_error),
                    "texts": [c.text for c in result.content if c.type == "text"],
                    "structured": result.structured_content,
                }
            elif op == "list_resources":
                answer = dump(await session.list_resources())
            elif op == "list_templates":
                answer = dump(await session.list_resource_templates())
            elif op == "read":
                answer = dump(await session.read_resource(request["uri"]))
            elif op == "list_prompts":
                answer = dump(await session.list_prompts())
            elif op == "prompt":
                answer = dump(await session.get_prompt(request["name"], request.get("args", {})))
            else:
                answer = {"error": "unknown op " + op}
        except Exception as e:  # the test reads the failure; the session goes on
            answer = {"error": str(e) or type(e).__name__}
        print(json.dumps(answer), flush=True)


async def main():
    if sys.argv[1] == "stdio":
        params = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await serve(session)
    else:
        url, token = sys.argv[2], sys.argv[3]
        client = create_mcp_http_client(headers={"Authorization": "Bearer " + token})
        async with client, streamable_http_client(url, http_client=client) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await serve(session)


asyncio.run(main())

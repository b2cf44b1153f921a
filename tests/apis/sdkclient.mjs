// One streamed request through an official SDK (openai's responses.stream, @anthropic-ai/sdk's
// messages.stream), as an application would make it, for tst_apisdk: the SDK parses the stream
// and accumulates the answer; this prints what it made of it as one JSON line. The response
// bytes are also written, as received, to <raw file>, so the test can give ServeBench the very
// same stream.
//
//   node sdkclient.mjs <dir with node_modules> <base url> responses|messages <raw file>
//                      <prompt> <max tokens> [<thinking budget>]
//
// Output: {"id", "content" (the text deltas joined), "reasoning" (reasoning or thinking deltas
// joined), "deltas" (non-empty text and reasoning deltas), "finalText" (the SDK's own final
// text), "status" (Responses status or Messages stop_reason), "usage" (the SDK's final usage)}.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const [refDir, base, api, rawFile, prompt, maxTokens, thinking] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(refDir), "package.json"));

// Reads the whole body, keeps it, and hands the SDK a response with the same bytes.
async function teeFetch(url, init) {
  const res = await fetch(url, init);
  const bytes = Buffer.from(await res.arrayBuffer());
  fs.writeFileSync(rawFile, bytes);
  return new Response(bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
}

const out = { content: "", reasoning: "", deltas: 0 };
if (api === "responses") {
  const { default: OpenAI } = require("openai");
  const client = new OpenAI({ apiKey: "sk-sdk-test", baseURL: `${base}/v1`, fetch: teeFetch, maxRetries: 0 });
  const stream = client.responses.stream({ model: "servebench-sim", input: prompt, max_output_tokens: Number(maxTokens) });
  for await (const event of stream) {
    if (event.type === "response.output_text.delta" && event.delta) {
      out.content += event.delta;
      ++out.deltas;
    } else if (
      (event.type === "response.reasoning_text.delta" || event.type === "response.reasoning_summary_text.delta") &&
      event.delta
    ) {
      out.reasoning += event.delta;
      ++out.deltas;
    }
  }
  const final = await stream.finalResponse();
  out.id = final.id;
  // output_text is the SDK's convenience (not every version sets it on a streamed response):
  // else the final response's message items, as that convenience joins them.
  out.finalText =
    final.output_text ??
    final.output
      .filter((item) => item.type === "message")
      .flatMap((item) => item.content.filter((c) => c.type === "output_text").map((c) => c.text))
      .join("");
  out.status = final.incomplete_details?.reason ?? final.status;
  out.usage = final.usage;
} else {
  const { default: Anthropic } = require("@anthropic-ai/sdk");
  const client = new Anthropic({ apiKey: "sk-sdk-test", baseURL: base, fetch: teeFetch, maxRetries: 0 });
  const params = { model: "servebench-sim", max_tokens: Number(maxTokens), messages: [{ role: "user", content: prompt }] };
  if (thinking) params.thinking = { type: "enabled", budget_tokens: Number(thinking) };
  const stream = client.messages.stream(params);
  for await (const event of stream) {
    if (event.type !== "content_block_delta") continue;
    if (event.delta.type === "text_delta" && event.delta.text) {
      out.content += event.delta.text;
      ++out.deltas;
    } else if (event.delta.type === "thinking_delta" && event.delta.thinking) {
      out.reasoning += event.delta.thinking;
      ++out.deltas;
    }
  }
  const final = await stream.finalMessage();
  out.id = final.id;
  out.finalText = await stream.finalText();
  out.status = final.stop_reason;
  out.usage = final.usage;
}
console.log(JSON.stringify(out));

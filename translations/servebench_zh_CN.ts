<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>sb::ApiKeyStore</name>
    <message>
        <source>The environment variable %1 is not set: requests are sent without an API key.</source>
        <translation>环境变量 %1 未设置：请求将不带 API 密钥发送。</translation>
    </message>
    <message>
        <source>no key is stored for &quot;%1&quot;</source>
        <translation>“%1”下没有保存密钥</translation>
    </message>
    <message>
        <source>The keychain could not provide the API key (%1), and %2 is not set: requests are sent without an API key.</source>
        <translation>无法从密钥链获取 API 密钥（%1），且 %2 未设置：请求将不带 API 密钥发送。</translation>
    </message>
    <message>
        <source>The keychain could not provide the API key (%1): using the %2 environment variable instead.</source>
        <translation>无法从密钥链获取 API 密钥（%1）：改用环境变量 %2。</translation>
    </message>
    <message>
        <source>The API key was saved in the system keychain as &quot;%1&quot;.</source>
        <translation>API 密钥已保存到系统密钥链，名称为“%1”。</translation>
    </message>
    <message>
        <source>The API key was not saved: %1. Set the %2 environment variable instead; ServeBench never writes keys into the project file.</source>
        <translation>API 密钥未保存：%1。请改为设置环境变量 %2；ServeBench 从不把密钥写入项目文件。</translation>
    </message>
    <message>
        <source>No system keychain here, and %1 is not set: requests are sent without an API key.</source>
        <translation>这里没有系统钥匙串，且未设置 %1：请求将不带 API 密钥发送。</translation>
    </message>
    <message>
        <source>No system keychain here: the API key comes from %1.</source>
        <translation>这里没有系统钥匙串：API 密钥取自 %1。</translation>
    </message>
    <message>
        <source>No system keychain here: the key was not saved. Set the %1 environment variable instead; ServeBench never writes keys into the project file.</source>
        <translation>这里没有系统钥匙串：密钥未保存。请改为设置环境变量 %1；ServeBench 从不把密钥写入项目文件。</translation>
    </message>
</context>
<context>
    <name>sb::BillImportDialog</name>
    <message>
        <source>Import bills</source>
        <translation>导入账单</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>(shared by every SUT)</source>
        <translation>（由所有被测系统分摊）</translation>
    </message>
    <message>
        <source>A CSV file with a header row, as servebench-cli bills import takes it (docs/cost.md). The import is all or nothing: a file with any wrong row imports no item.</source>
        <translation>带表头行的 CSV 文件，格式与 servebench-cli bills import 相同（docs/cost.md）。导入要么全部成功，要么什么也不导入：只要有一行有误，就不导入任何条目。</translation>
    </message>
    <message>
        <source>Bill CSV:</source>
        <translation>账单 CSV：</translation>
    </message>
    <message>
        <source>Items bill the SUT:</source>
        <translation>条目计入的被测系统：</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Bill CSV</source>
        <translation>账单 CSV</translation>
    </message>
    <message>
        <source>Bill CSV (*.csv);;All files (*)</source>
        <translation>账单 CSV (*.csv);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>sb::CacheAuditDialog</name>
    <message>
        <source>Prefix-cache audit: %1</source>
        <translation>前缀缓存审计：%1</translation>
    </message>
    <message>
        <source>Finds out whether the server caches prompt prefixes. Pass A sends the prompts behind new unique prefixes (cold), pass B sends exactly A&apos;s prompts again (warm if the server caches prefixes), pass C sends the same bodies behind new prefixes (cold again, a control for drift). The effect is the TTFT ratio B/C, paired by prompt, with a 95 % confidence interval (docs/cache-audit.md).</source>
        <translation>检测服务器是否缓存提示前缀。第 A 轮在新的唯一前缀后发送提示（冷）；第 B 轮原样再次发送 A 的提示（若服务器缓存前缀则为热）；第 C 轮在新的前缀后发送相同的正文（再次为冷，用于对照漂移）。效应为按提示配对的 TTFT 比值 B/C，附 95 % 置信区间（docs/cache-audit.md）。</translation>
    </message>
    <message>
        <source>Prompts per pass:</source>
        <translation>每轮提示数：</translation>
    </message>
    <message>
        <source>Prompt length (tokens):</source>
        <translation>提示长度（token）：</translation>
    </message>
    <message>
        <source>Output tokens:</source>
        <translation>输出 token 数：</translation>
    </message>
    <message>
        <source>Max concurrency:</source>
        <translation>最大并发数：</translation>
    </message>
    <message>
        <source>Seed of the prompts:</source>
        <translation>提示的种子：</translation>
    </message>
    <message>
        <source>Request timeout (s):</source>
        <translation>请求超时（秒）：</translation>
    </message>
    <message>
        <source>Start audit</source>
        <translation>开始审计</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Save JSON…</source>
        <translation>保存 JSON…</translation>
    </message>
    <message>
        <source>Reading the API key …</source>
        <translation>正在读取 API 密钥…</translation>
    </message>
    <message>
        <source>The seed must be a whole number from 0 to 18446744073709551615.</source>
        <translation>种子必须是 0 到 18446744073709551615 之间的整数。</translation>
    </message>
    <message>
        <source>Checking the endpoint …</source>
        <translation>正在检查端点…</translation>
    </message>
    <message>
        <source>The audit cannot start: %1: %2</source>
        <translation>审计无法开始：%1：%2</translation>
    </message>
    <message>
        <source>Pass %1 of 3: %2 …</source>
        <translation>第 %1 轮（共 3 轮）：%2…</translation>
    </message>
    <message>
        <source>Audit finished.</source>
        <translation>审计完成。</translation>
    </message>
    <message>
        <source>Stopped before the audit finished.</source>
        <translation>审计完成前已停止。</translation>
    </message>
    <message>
        <source>The audit failed: %1</source>
        <translation>审计失败：%1</translation>
    </message>
    <message>
        <source>Save the audit</source>
        <translation>保存审计结果</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>sb::ComparisonTableModel</name>
    <message>
        <source>Measured requests that succeeded (warm-up excluded).</source>
        <translation>成功的计量请求数（不含预热）。</translation>
    </message>
    <message>
        <source>Measured requests that failed, whatever the error class.</source>
        <translation>失败的计量请求数，不论错误类别。</translation>
    </message>
    <message>
        <source>Failed requests / (successful + failed requests).</source>
        <translation>失败请求数 /（成功请求数 + 失败请求数）。</translation>
    </message>
    <message>
        <source>From the test window that holds the run: the window&apos;s total cost, divided by its successful requests or its output tokens. Never estimated: without bill items the cost is not available.</source>
        <translation>来自包含该运行的测试时间窗：时间窗的总成本除以其成功请求数或输出 token 数。从不估算：没有账单条目时成本不可用。</translation>
    </message>
    <message>
        <source>Lower is better.</source>
        <translation>越低越好。</translation>
    </message>
    <message>
        <source>Higher is better.</source>
        <translation>越高越好。</translation>
    </message>
    <message>
        <source>Differences not computed: %1</source>
        <translation>未计算差值：%1</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>%1: not available — %2</source>
        <translation>%1：不可用 — %2</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>无数值</translation>
    </message>
    <message>
        <source>Baseline: the other runs&apos; differences are taken against this one.</source>
        <translation>基线：其他运行的差值都相对于此运行计算。</translation>
    </message>
    <message>
        <source>Against %1: %2 %3</source>
        <translation>相对于 %1：%2 %3</translation>
    </message>
    <message>
        <source>No relative difference: the baseline is zero.</source>
        <translation>无相对差值：基线为零。</translation>
    </message>
    <message>
        <source>No difference: the baseline has no value.</source>
        <translation>无差值：基线没有数值。</translation>
    </message>
    <message>
        <source>Rank: none</source>
        <translation>排名：无</translation>
    </message>
    <message>
        <source>Rank by %1</source>
        <translation>按 %1 排名</translation>
    </message>
    <message>
        <source>%1 of %2 by %3</source>
        <translation>按 %3 排第 %1（共 %2）</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source> (baseline)</source>
        <translation>（基线）</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Baseline of the differences</source>
        <translation>差值的基线</translation>
    </message>
    <message>
        <source>Rank %1 of %2</source>
        <translation>第 %1 名（共 %2）</translation>
    </message>
    <message>
        <source>%1 (mean of its runs: %2 %3)</source>
        <translation>%1（其各次运行的均值：%2 %3）</translation>
    </message>
    <message>
        <source>Test at %1: %2</source>
        <translation>%1 下的检验：%2</translation>
    </message>
    <message>
        <source>Rank %1, shared: %2</source>
        <translation>第 %1 名，并列：%2</translation>
    </message>
    <message>
        <source>Rank %1: separated from the others at %2</source>
        <translation>第 %1 名：在 %2 下与其他候选区分开</translation>
    </message>
</context>
<context>
    <name>sb::ComparisonView</name>
    <message>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>Read the project&apos;s runs again</source>
        <translation>重新读取项目中的运行</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>SUT</source>
        <translation>被测系统</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Tick two or more runs to compare them; the columns of the table follow this order.</source>
        <translation>勾选两个或更多运行进行比较；表格各列按此顺序排列。</translation>
    </message>
    <message>
        <source>&amp;Baseline:</source>
        <translation>基线(&amp;B)：</translation>
    </message>
    <message>
        <source>The run the differences are taken against</source>
        <translation>计算差值所依据的运行</translation>
    </message>
    <message>
        <source>Rank &amp;by:</source>
        <translation>排名依据(&amp;B)：</translation>
    </message>
    <message>
        <source>The metric the runs are ranked by, as servebench-cli compare --rank-by; its latency statistic is also the y axis of the latency-versus-throughput curves</source>
        <translation>对运行排名所依据的指标，与 servebench-cli compare --rank-by 相同；其延迟统计量也是延迟-吞吐量曲线的纵轴</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Latency vs throughput</source>
        <translation>延迟与吞吐量</translation>
    </message>
    <message>
        <source>Cumulative distributions of TTFT, TPOT, ITL and E2EL, one line per run, as in the report</source>
        <translation>TTFT、TPOT、ITL 和 E2EL 的累积分布，每个运行一条线，与报告一致</translation>
    </message>
    <message>
        <source>One curve per SUT over the chosen runs and every run of the sweeps they belong to</source>
        <translation>每个被测系统一条曲线，涵盖所选运行及其所属扫描中的全部运行</translation>
    </message>
    <message>
        <source>Request throughput and goodput</source>
        <translation>请求吞吐量与有效吞吐量</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Token throughput</source>
        <translation>token 吞吐量</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>&amp;X axis:</source>
        <translation>横轴(&amp;X)：</translation>
    </message>
    <message>
        <source>Achieved output throughput (tok/s)</source>
        <translation>实际输出吞吐量（token/秒）</translation>
    </message>
    <message>
        <source>Achieved request throughput (req/s)</source>
        <translation>实际请求吞吐量（请求/秒）</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) compared</source>
        <translation>
            <numerusform>已比较 %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Request throughput</source>
        <translation>请求吞吐量</translation>
    </message>
    <message>
        <source>Output throughput</source>
        <translation>输出吞吐量</translation>
    </message>
    <message>
        <source>Goodput</source>
        <translation>有效吞吐量</translation>
    </message>
    <message>
        <source>Cost per request</source>
        <translation>每请求成本</translation>
    </message>
    <message>
        <source>Cost per 1M output tokens</source>
        <translation>每百万输出 token 的成本</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Reading %1 …</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Cannot read the project: %1</source>
        <translation>无法读取项目：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) in the project</source>
        <translation>
            <numerusform>项目中有 %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>open loop</source>
        <translation>开环</translation>
    </message>
    <message>
        <source>SingleStream</source>
        <translation>SingleStream</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1, imported</source>
        <translation>%1，导入</translation>
    </message>
    <message numerus="yes">
        <source>Comparing %n run(s) …</source>
        <translation>
            <numerusform>正在比较 %n 个运行…</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>无法比较：%1</translation>
    </message>
    <message>
        <source>Save the project to compare its runs: the comparison reads them from the project file.</source>
        <translation>请先保存项目再比较其运行：比较从项目文件中读取运行。</translation>
    </message>
    <message>
        <source>Tick two or more runs to compare them.</source>
        <translation>勾选两个或更多运行进行比较。</translation>
    </message>
    <message>
        <source>Not comparable: ranking refused.</source>
        <translation>不可比较：拒绝排名。</translation>
    </message>
    <message>
        <source>Comparable: the runs share the workload and the SUT (repeat runs).</source>
        <translation>可比较：各运行的工作负载和被测系统均相同（重复运行）。</translation>
    </message>
    <message>
        <source>Comparable: exactly one variable differs — %1.</source>
        <translation>可比较：恰好一个变量不同 — %1。</translation>
    </message>
    <message>
        <source>Confounded: %1 variables differ (%2); a difference in the results cannot be attributed to one of them.</source>
        <translation>混杂：有 %1 个变量不同（%2）；结果的差异无法归因于其中任何一个。</translation>
    </message>
    <message>
        <source>Not confirmed: %1 unknown for at least one run.</source>
        <translation>未确认：至少有一个运行的 %1 未知。</translation>
    </message>
    <message>
        <source>compared (SUT)</source>
        <translation>比较对象（被测系统）</translation>
    </message>
    <message>
        <source>measurement</source>
        <translation>测量方式</translation>
    </message>
    <message>
        <source>blocks ranking</source>
        <translation>阻止排名</translation>
    </message>
    <message>
        <source>workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Ranking</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Imported runs</source>
        <translation>导入的运行</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1（ms）</translation>
    </message>
    <message>
        <source>fraction of samples ≤ x</source>
        <translation>样本中 ≤ x 的比例</translation>
    </message>
    <message>
        <source>goodput not available for %1</source>
        <translation>%1 的有效吞吐量不可用</translation>
    </message>
    <message>
        <source>Latency versus throughput, one curve per SUT</source>
        <translation>延迟与吞吐量，每个被测系统一条曲线</translation>
    </message>
    <message>
        <source>Mean %1</source>
        <translation>%1 均值</translation>
    </message>
    <message>
        <source>Median %1</source>
        <translation>%1 中位数</translation>
    </message>
    <message>
        <source>achieved output throughput (tok/s)</source>
        <translation>实际输出吞吐量（token/秒）</translation>
    </message>
    <message>
        <source>achieved request throughput (req/s)</source>
        <translation>实际请求吞吐量（请求/秒）</translation>
    </message>
    <message>
        <source>The curves include every run of the sweeps %1.</source>
        <translation>曲线包含扫描 %1 中的全部运行。</translation>
    </message>
    <message>
        <source>No run gives a point.</source>
        <translation>没有运行能给出数据点。</translation>
    </message>
    <message>
        <source>Left out: %1</source>
        <translation>未计入：%1</translation>
    </message>
    <message>
        <source>Differences (%1)</source>
        <translation>差异（%1）</translation>
    </message>
    <message>
        <source>%1 CDF</source>
        <translation>%1 CDF</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Write the comparison shown as a report for a review: the same files as servebench-cli report</source>
        <translation>将当前显示的比较写成供评审使用的报告：与 servebench-cli report 生成的文件相同</translation>
    </message>
    <message>
        <source>HTML report…</source>
        <translation>HTML 报告…</translation>
    </message>
    <message>
        <source>PDF report…</source>
        <translation>PDF 报告…</translation>
    </message>
    <message>
        <source>CSV (summary and per-request)…</source>
        <translation>CSV（汇总与逐请求）…</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>Acceptance bundle (folder with a sha256 manifest)…</source>
        <translation>验收包（含 sha256 清单的文件夹）…</translation>
    </message>
    <message>
        <source>Export the HTML report</source>
        <translation>导出 HTML 报告</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>Export the PDF report</source>
        <translation>导出 PDF 报告</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export JSON</source>
        <translation>导出 JSON</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export the acceptance bundle into a new folder</source>
        <translation>将验收包导出到新文件夹</translation>
    </message>
    <message>
        <source>Writing the report …</source>
        <translation>正在写入报告 …</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>The report could not be written: %1</source>
        <translation>无法写入报告：%1</translation>
    </message>
    <message>
        <source>Significance</source>
        <translation>显著性</translation>
    </message>
    <message>
        <source>Per metric and candidate: the difference from the baseline with its 95 % interval and whether the data separate it from noise</source>
        <translation>按指标和候选：与基线的差异及其 95 % 区间，以及数据能否把它与噪声区分开</translation>
    </message>
    <message>
        <source>Each candidate against the baseline %1 at %2: better or worse only when the interval of the difference excludes 0. A single run&apos;s throughput has no spread to test; repeat runs (a series) make it testable. The hints say how many requests (or runs) per side would detect a %3 % difference.</source>
        <translation>每个候选在 %2 下与基线 %1 比较：只有差异的区间不含 0 时才判为更好或更差。单次运行的吞吐量没有可检验的离散度；重复运行（系列）才能检验它。提示给出每方需要多少请求（或运行）才能检测到 %3 % 的差异。</translation>
    </message>
    <message>
        <source>%1: compared over its runs; %2</source>
        <translation>%1：按其各次运行比较；%2</translation>
    </message>
    <message>
        <source>Series</source>
        <translation>系列</translation>
    </message>
    <message>
        <source>%1 — over-saturated</source>
        <translation>%1 — 过饱和</translation>
    </message>
    <message>
        <source>Nothing to compare: %1</source>
        <translation>没有可比较的内容：%1</translation>
    </message>
    <message>
        <source>Tick two or more runs to compare them: this table then lists every metric of each run and its difference from the baseline.</source>
        <translation>勾选两个或更多运行来比较它们：此表随后列出每个运行的每项指标及其与基线的差异。</translation>
    </message>
    <message>
        <source>Tick two or more runs to compare them: their latency distributions, throughput and latency-versus-throughput curves then show here.</source>
        <translation>勾选两个或更多运行来比较它们：它们的延迟分布、吞吐量以及延迟-吞吐量曲线随后显示在这里。</translation>
    </message>
</context>
<context>
    <name>sb::ConnectionProbe</name>
    <message>
        <source>the base URL is not a valid http(s) URL</source>
        <translation>基础 URL 不是有效的 http(s) URL</translation>
    </message>
    <message>
        <source>Listing models at %1 …</source>
        <translation>正在列出 %1 上的模型…</translation>
    </message>
    <message>
        <source>Sending one streamed request to %1 …</source>
        <translation>正在向 %1 发送一个流式请求…</translation>
    </message>
    <message>
        <source>Models: %1.</source>
        <translation>模型：%1。</translation>
    </message>
    <message>
        <source>The endpoint streams: %1 token chunks arrived over %2 ms in %3 reads, first after %4 ms (model %5).</source>
        <translation>该端点确实在流式输出：%1 个 token 块在 %2 ms 内分 %3 次读取到达，首块在 %4 ms 后到达（模型 %5）。</translation>
    </message>
    <message>
        <source>The endpoint buffers the answer: all %1 token chunks arrived within %2 ms, %3 ms after sending. A proxy or gateway is probably buffering; TTFT and ITL measured through it are not the server&apos;s.</source>
        <translation>该端点缓冲了整个回答：全部 %1 个 token 块在 %2 ms 内到达，距发送已过 %3 ms。很可能是代理或网关在缓冲；经由它测得的 TTFT 和 ITL 并非服务器本身的数值。</translation>
    </message>
    <message>
        <source>Only one token chunk arrived: cannot tell whether the endpoint streams.</source>
        <translation>只收到一个 token 块：无法判断该端点是否流式输出。</translation>
    </message>
    <message>
        <source>The streamed request failed: %1</source>
        <translation>流式请求失败：%1</translation>
    </message>
    <message>
        <source>no token arrived</source>
        <translation>没有收到任何 token</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>The endpoint answered in %1 ms (embeddings or rerank: not streamed, so there is no TTFT or ITL; model %2).</source>
        <translation>端点在 %1 ms 内作答（嵌入或重排序：非流式，因此没有 TTFT 或 ITL；模型 %2）。</translation>
    </message>
</context>
<context>
    <name>sb::CopyableTableView</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
</context>
<context>
    <name>sb::CostBillModel</name>
    <message>
        <source>(shared)</source>
        <translation>（共享）</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>no window</source>
        <translation>无时间窗</translation>
    </message>
    <message>
        <source>other SUT</source>
        <translation>其他被测系统</translation>
    </message>
    <message>
        <source>not attributed</source>
        <translation>未分摊</translation>
    </message>
    <message>
        <source>inside</source>
        <translation>在时间窗内</translation>
    </message>
    <message>
        <source>overlaps: prorated</source>
        <translation>部分重叠：按时间比例分摊</translation>
    </message>
    <message>
        <source>overlaps: whole</source>
        <translation>部分重叠：全额计入</translation>
    </message>
    <message>
        <source>overlaps: needs a decision</source>
        <translation>部分重叠：需要决定</translation>
    </message>
    <message>
        <source>excluded (outside)</source>
        <translation>已排除（在时间窗外）</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>SUT</source>
        <translation>被测系统</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Start (UTC)</source>
        <translation>开始（UTC）</translation>
    </message>
    <message>
        <source>End (UTC)</source>
        <translation>结束（UTC）</translation>
    </message>
    <message>
        <source>Pricing</source>
        <translation>计价</translation>
    </message>
    <message>
        <source>Item total</source>
        <translation>条目合计</translation>
    </message>
    <message>
        <source>In window</source>
        <translation>时间窗内</translation>
    </message>
    <message>
        <source>Counted</source>
        <translation>计入金额</translation>
    </message>
    <message>
        <source>Overlap rule</source>
        <translation>重叠规则</translation>
    </message>
    <message>
        <source>prorate by time</source>
        <translation>按时间比例分摊</translation>
    </message>
    <message>
        <source>include whole</source>
        <translation>整笔计入</translation>
    </message>
    <message>
        <source>undecided</source>
        <translation>未决定</translation>
    </message>
</context>
<context>
    <name>sb::CostPage</name>
    <message>
        <source>Test window:</source>
        <translation>测试时间窗：</translation>
    </message>
    <message>
        <source>Undecided (left out)</source>
        <translation>未决定（不计入）</translation>
    </message>
    <message>
        <source>Prorate by time</source>
        <translation>按时间比例分摊</translation>
    </message>
    <message>
        <source>Include whole</source>
        <translation>全额计入</translation>
    </message>
    <message>
        <source>Overlap rule for the selected item:</source>
        <translation>所选条目的重叠规则：</translation>
    </message>
    <message>
        <source>No project open</source>
        <translation>未打开项目</translation>
    </message>
    <message>
        <source>Reading %1 …</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Cannot read the project: %1</source>
        <translation>无法读取项目：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n bill item(s), %1 test window(s)</source>
        <translation>
            <numerusform>%n 个账单条目，%1 个测试时间窗</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a bill item.</source>
        <translation>请选择一个账单条目。</translation>
    </message>
    <message>
        <source>This item is not one the window considers.</source>
        <translation>该条目不在此时间窗的考虑范围内。</translation>
    </message>
    <message>
        <source>Only an item that partly overlaps the window needs a rule.</source>
        <translation>只有与时间窗部分重叠的条目才需要规则。</translation>
    </message>
    <message>
        <source>Cannot save the rule: %1</source>
        <translation>无法保存规则：%1</translation>
    </message>
    <message>
        <source>Saved: %1 → %2</source>
        <translation>已保存：%1 → %2</translation>
    </message>
    <message>
        <source>Import bills…</source>
        <translation>导入账单…</translation>
    </message>
    <message>
        <source>Import bill items from a CSV file, as servebench-cli bills import does</source>
        <translation>从 CSV 文件导入账单条目，与 servebench-cli bills import 相同</translation>
    </message>
    <message>
        <source>New window…</source>
        <translation>新建窗口…</translation>
    </message>
    <message>
        <source>Create a test window over a SUT&apos;s runs</source>
        <translation>在某个被测系统的运行上创建测试窗口</translation>
    </message>
    <message>
        <source>Window bounds (UTC):</source>
        <translation>窗口范围（UTC）：</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <source>Save bounds</source>
        <translation>保存范围</translation>
    </message>
    <message>
        <source>Move the selected window to these bounds; its runs must stay inside</source>
        <translation>把所选窗口移到这些范围；其中的运行必须仍在窗口内</translation>
    </message>
    <message>
        <source>No test window yet. Create one over a SUT&apos;s runs with New window… (or servebench-cli window create); unit costs need one.</source>
        <translation>尚无测试窗口。请用“新建窗口…”（或 servebench-cli window create）在某个被测系统的运行上创建一个；单位成本需要测试窗口。</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n bill item(s) from %1, shared by every SUT.</source>
        <translation>
            <numerusform>已从 %1 导入 %n 个账单条目，由所有被测系统分摊。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n bill item(s) from %1 for SUT &apos;%2&apos;.</source>
        <translation>
            <numerusform>已从 %1 为被测系统“%2”导入 %n 个账单条目。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Created test window &apos;%1&apos; on SUT &apos;%2&apos; with %n run(s).</source>
        <translation>
            <numerusform>已在被测系统“%2”上创建测试窗口“%1”，包含 %n 次运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Test window &apos;%1&apos; now spans %2 – %3 (UTC).</source>
        <translation>测试窗口“%1”现在的范围为 %2 – %3（UTC）。</translation>
    </message>
    <message>
        <source>Saving …</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more problem(s)</source>
        <translation>
            <numerusform>……另有 %n 个问题</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sb::CostTimeline</name>
    <message>
        <source>Choose a test window to see its timeline</source>
        <translation>选择一个测试时间窗以查看其时间线</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
</context>
<context>
    <name>sb::CostWindowDialog</name>
    <message>
        <source>New test window</source>
        <translation>新建测试窗口</translation>
    </message>
    <message>
        <source>unique in the project</source>
        <translation>在项目中唯一</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>SUT:</source>
        <translation>被测系统：</translation>
    </message>
    <message>
        <source>Start (UTC):</source>
        <translation>开始（UTC）：</translation>
    </message>
    <message>
        <source>End (UTC, exclusive):</source>
        <translation>结束（UTC，不含）：</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>The end must come after the start.</source>
        <translation>结束时间必须晚于开始时间。</translation>
    </message>
    <message>
        <source>This SUT has no finished run yet: the window will hold none, and its unit costs will not be available.</source>
        <translation>该被测系统尚无已完成的运行：窗口中不会有运行，其单位成本将不可用。</translation>
    </message>
    <message numerus="yes">
        <source>%n finished run(s) of this SUT lie inside; a run that only partly overlaps is left out.</source>
        <translation>
            <numerusform>该被测系统有 %n 次已完成的运行位于窗口内；只部分重叠的运行不计入。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sb::DatasetEditor</name>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>&amp;File:</source>
        <translation>文件(&amp;F)：</translation>
    </message>
    <message>
        <source>Version label:</source>
        <translation>版本标签：</translation>
    </message>
    <message>
        <source>Input tokens:</source>
        <translation>输入 token 数：</translation>
    </message>
    <message>
        <source>Output tokens:</source>
        <translation>输出 token 数：</translation>
    </message>
    <message>
        <source>Distribution:</source>
        <translation>分布：</translation>
    </message>
    <message>
        <source>Range ratio:</source>
        <translation>范围比例：</translation>
    </message>
    <message>
        <source>Input std. dev.:</source>
        <translation>输入标准差：</translation>
    </message>
    <message>
        <source>Output std. dev.:</source>
        <translation>输出标准差：</translation>
    </message>
    <message>
        <source>Input min – max:</source>
        <translation>输入最小值 – 最大值：</translation>
    </message>
    <message>
        <source>Output min – max:</source>
        <translation>输出最小值 – 最大值：</translation>
    </message>
    <message>
        <source>Shared prefix tokens:</source>
        <translation>共享前缀 token 数：</translation>
    </message>
    <message>
        <source>Fixed output tokens:</source>
        <translation>固定输出 token 数：</translation>
    </message>
    <message>
        <source>Synthetic (random lengths)</source>
        <translation>合成数据（随机长度）</translation>
    </message>
    <message>
        <source>ShareGPT JSON</source>
        <translation>ShareGPT JSON</translation>
    </message>
    <message>
        <source>Custom JSONL (prompt, output_tokens)</source>
        <translation>自定义 JSONL（prompt、output_tokens）</translation>
    </message>
    <message>
        <source>Uniform (vLLM --random-range-ratio)</source>
        <translation>均匀分布（vLLM --random-range-ratio）</translation>
    </message>
    <message>
        <source>Normal (mean, std. dev., clamped)</source>
        <translation>正态分布（均值、标准差，截断）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>pick or drop a .json / .jsonl file</source>
        <translation>选择或拖入 .json / .jsonl 文件</translation>
    </message>
    <message>
        <source>Drop a ShareGPT .json or custom .jsonl file anywhere on this editor</source>
        <translation>可将 ShareGPT .json 或自定义 .jsonl 文件拖放到此编辑器的任意位置</translation>
    </message>
    <message>
        <source>your label, e.g. v2-2024-06</source>
        <translation>自定义标签，例如 v2-2024-06</translation>
    </message>
    <message>
        <source>Synthetic lengths</source>
        <translation>合成长度</translation>
    </message>
    <message>
        <source>File sampling</source>
        <translation>文件采样</translation>
    </message>
    <message>
        <source>from the data</source>
        <translation>取自数据</translation>
    </message>
    <message>
        <source>-1: ShareGPT uses the reference answer&apos;s length, custom JSONL each line&apos;s output_tokens</source>
        <translation>-1：ShareGPT 使用参考回答的长度，自定义 JSONL 使用每行的 output_tokens</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Lengths are drawn uniformly from [len·(1−r), len·(1+r)]</source>
        <translation>长度在 [len·(1−r), len·(1+r)] 内均匀抽取</translation>
    </message>
    <message>
        <source>Words every prompt starts with: exercises the prefix cache</source>
        <translation>每个提示词开头相同的词数：用于考察前缀缓存</translation>
    </message>
    <message>
        <source>Sample with replacement when the file has fewer items than the run needs (repeats hit the prefix cache)</source>
        <translation>文件条目少于运行所需时有放回地采样（重复的提示词会命中前缀缓存）</translation>
    </message>
    <message>
        <source>Input tokens</source>
        <translation>输入 token 数</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>输出 token 数</translation>
    </message>
    <message>
        <source>Give the dataset a name.</source>
        <translation>请为数据集命名。</translation>
    </message>
    <message>
        <source>At least one input token.</source>
        <translation>至少需要一个输入 token。</translation>
    </message>
    <message>
        <source>At least one output token.</source>
        <translation>至少需要一个输出 token。</translation>
    </message>
    <message>
        <source>The range ratio must be below 1 (lengths would reach 0).</source>
        <translation>范围比例必须小于 1（否则长度可能为 0）。</translation>
    </message>
    <message>
        <source>Choose a file (or drop one here).</source>
        <translation>请选择一个文件（或拖放到这里）。</translation>
    </message>
    <message>
        <source>No such file: %1</source>
        <translation>文件不存在：%1</translation>
    </message>
    <message>
        <source>Not a readable file: %1</source>
        <translation>不是可读的文件：%1</translation>
    </message>
    <message>
        <source>Loading sample …</source>
        <translation>正在加载样本…</translation>
    </message>
    <message>
        <source>Dataset could not be loaded: %1</source>
        <translation>无法加载数据集：%1</translation>
    </message>
    <message>
        <source>Sample loaded.</source>
        <translation>样本已加载。</translation>
    </message>
    <message>
        <source>Preview of the request list a run draws: %1 prompts, seed %2 (from the selected load profile).</source>
        <translation>运行将抽取的请求列表预览：%1 个提示词，种子 %2（取自所选负载配置）。</translation>
    </message>
    <message>
        <source>Hash (sha256): %1</source>
        <translation>哈希（sha256）：%1</translation>
    </message>
    <message>
        <source>Synthetic data: the hash covers the sampling parameters</source>
        <translation>合成数据：哈希涵盖采样参数</translation>
    </message>
    <message>
        <source>Source file sha256: %1</source>
        <translation>源文件 sha256：%1</translation>
    </message>
    <message>
        <source>mean %1, p50 %2, p90 %3, p99 %4, min %5, max %6</source>
        <translation>均值 %1，p50 %2，p90 %3，p99 %4，最小 %5，最大 %6</translation>
    </message>
    <message>
        <source>%1 requests from %2 usable items (%3 skipped%4).</source>
        <translation>从 %2 个可用条目中抽取 %1 个请求（跳过 %3 个%4）。</translation>
    </message>
    <message>
        <source>, %1 drawn again</source>
        <translation>，重复抽取 %1 个</translation>
    </message>
    <message>
        <source>Input tokens: %1</source>
        <translation>输入 token 数：%1</translation>
    </message>
    <message>
        <source>Output tokens: %1</source>
        <translation>输出 token 数：%1</translation>
    </message>
    <message>
        <source>Token counts are local estimates, not the model&apos;s tokenizer.</source>
        <translation>token 数为本地估算值，并非模型分词器的结果。</translation>
    </message>
    <message>
        <source>Choose a dataset file</source>
        <translation>选择数据集文件</translation>
    </message>
    <message>
        <source>Datasets (*.json *.jsonl);;All files (*)</source>
        <translation>数据集 (*.json *.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Sample with replacement</source>
        <translation>有放回采样</translation>
    </message>
    <message>
        <source>Turns per session:</source>
        <translation>每个会话的轮数：</translation>
    </message>
    <message>
        <source>Session context tokens:</source>
        <translation>会话上下文词元数：</translation>
    </message>
    <message>
        <source>At most turns:</source>
        <translation>最多轮数：</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Multi-turn sessions (every turn, with its history)</source>
        <translation>多轮会话（每一轮，带历史）</translation>
    </message>
    <message>
        <source>Each conversation becomes a session whose turns resend the conversation so far. Off: ShareGPT contributes its first turn only, as vLLM does.</source>
        <translation>每段对话成为一个会话，其每一轮都会重新发送此前的对话。关闭时：ShareGPT 只取第一轮，与 vLLM 相同。</translation>
    </message>
    <message>
        <source>Synthetic sessions: user turns per session</source>
        <translation>合成会话：每个会话的用户轮数</translation>
    </message>
    <message>
        <source>Synthetic sessions: tokens of a session&apos;s own context in its first message, reused by its later turns only</source>
        <translation>合成会话：会话首条消息中该会话自有上下文的词元数，只被它之后的轮次复用</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>ShareGPT and custom sessions: cut longer conversations</source>
        <translation>ShareGPT 与自定义会话：截断更长的对话</translation>
    </message>
    <message>
        <source>Preview of the sessions a run draws: %1 sessions, seed %2 (from the selected load profile), one row per turn.</source>
        <translation>运行将抽取的会话预览：%1 个会话，种子 %2（来自所选负载配置），每轮一行。</translation>
    </message>
    <message>
        <source>Sessions: %1 sessions, %2 turns (the lengths below are per turn: the new user message and the requested output).</source>
        <translation>会话：%1 个会话，%2 轮（以下长度按轮计：新的用户消息与请求的输出）。</translation>
    </message>
    <message>
        <source>Token counts are the SUT&apos;s tokenizer&apos;s: %1</source>
        <translation>token 数来自 SUT 的分词器：%1</translation>
    </message>
</context>
<context>
    <name>sb::DatasetPreviewModel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Source item</source>
        <translation>源条目</translation>
    </message>
    <message>
        <source>Input tokens</source>
        <translation>输入 token 数</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>输出 token 数</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
</context>
<context>
    <name>sb::KeychainUnavailableBackend</name>
    <message>
        <source>this build of ServeBench has no keychain support</source>
        <translation>此版本的 ServeBench 不支持密钥链</translation>
    </message>
</context>
<context>
    <name>sb::LoadProfileEditor</name>
    <message>
        <source>Load profile</source>
        <translation>负载配置</translation>
    </message>
    <message>
        <source>Arrival schedule (the same seed the run uses)</source>
        <translation>到达时间表（与运行使用相同的种子）</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>Scenario:</source>
        <translation>场景：</translation>
    </message>
    <message>
        <source>Arrival process:</source>
        <translation>到达过程：</translation>
    </message>
    <message>
        <source>Request &amp;rate (req/s):</source>
        <translation>请求速率(&amp;R)（请求/秒）：</translation>
    </message>
    <message>
        <source>Burstiness:</source>
        <translation>突发度：</translation>
    </message>
    <message>
        <source>Ramp-up:</source>
        <translation>爬坡：</translation>
    </message>
    <message>
        <source>Ramp-up rates (req/s):</source>
        <translation>爬坡速率（请求/秒）：</translation>
    </message>
    <message>
        <source>Max concurrency:</source>
        <translation>最大并发数：</translation>
    </message>
    <message>
        <source>Closed-loop concurrency:</source>
        <translation>闭环并发数：</translation>
    </message>
    <message>
        <source>Requests:</source>
        <translation>请求数：</translation>
    </message>
    <message>
        <source>Duration (s):</source>
        <translation>时长（秒）：</translation>
    </message>
    <message>
        <source>Warm-up requests:</source>
        <translation>预热请求数：</translation>
    </message>
    <message>
        <source>Warm-up (s):</source>
        <translation>预热时长（秒）：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>SLO TTFT (ms):</source>
        <translation>SLO TTFT（ms）：</translation>
    </message>
    <message>
        <source>SLO TPOT (ms):</source>
        <translation>SLO TPOT（ms）：</translation>
    </message>
    <message>
        <source>SLO E2EL (ms):</source>
        <translation>SLO E2EL（ms）：</translation>
    </message>
    <message>
        <source>Percentiles:</source>
        <translation>百分位数：</translation>
    </message>
    <message>
        <source>Request timeout (s):</source>
        <translation>请求超时（秒）：</translation>
    </message>
    <message>
        <source>Cache policy:</source>
        <translation>缓存策略：</translation>
    </message>
    <message>
        <source>None (plain benchmark)</source>
        <translation>无（普通基准测试）</translation>
    </message>
    <message>
        <source>MLPerf Server</source>
        <translation>MLPerf Server</translation>
    </message>
    <message>
        <source>MLPerf Offline</source>
        <translation>MLPerf Offline</translation>
    </message>
    <message>
        <source>MLPerf SingleStream</source>
        <translation>MLPerf SingleStream</translation>
    </message>
    <message>
        <source>Poisson</source>
        <translation>泊松</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>恒定</translation>
    </message>
    <message>
        <source>Gamma (bursty)</source>
        <translation>Gamma（突发）</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>Exponential</source>
        <translation>指数</translation>
    </message>
    <message>
        <source>unlimited (all at once)</source>
        <translation>不限（一次性全部发出）</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>off (open loop)</source>
        <translation>关闭（开环）</translation>
    </message>
    <message>
        <source>by duration</source>
        <translation>按时长</translation>
    </message>
    <message>
        <source>by request count</source>
        <translation>按请求数</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>0 … 18446744073709551615</source>
        <translation>0 … 18446744073709551615</translation>
    </message>
    <message>
        <source>e.g. 50, 90, 99</source>
        <translation>例如 50, 90, 99</translation>
    </message>
    <message>
        <source>Cache bust: a random prefix per run keeps repeated runs independent of the server&apos;s prefix cache</source>
        <translation>缓存击穿：每次运行加随机前缀，使重复运行不受服务器前缀缓存的影响</translation>
    </message>
    <message>
        <source>Gamma shape: 1 is Poisson, below 1 burstier, above 1 more even</source>
        <translation>Gamma 形状参数：1 即泊松，小于 1 更具突发性，大于 1 更均匀</translation>
    </message>
    <message>
        <source>Caps outstanding requests (open loop with a cap)</source>
        <translation>限制未完成的请求数（带上限的开环）</translation>
    </message>
    <message>
        <source>Keeps exactly this many requests in flight; the rate is ignored</source>
        <translation>始终保持这么多请求在途；忽略速率设置</translation>
    </message>
    <message>
        <source>Goodput counts requests meeting every SLO that is set</source>
        <translation>有效吞吐量（有效吞吐量）只统计满足所有已设 SLO 的请求</translation>
    </message>
    <message>
        <source>Issued and stored, excluded from every metric</source>
        <translation>会发送并保存，但不计入任何指标</translation>
    </message>
    <message>
        <source>Give the load profile a name.</source>
        <translation>请为负载配置命名。</translation>
    </message>
    <message>
        <source>A whole number from 0 to 18446744073709551615.</source>
        <translation>请输入 0 到 18446744073709551615 之间的整数。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a percentile between 0 and 100.</source>
        <translation>“%1”不是 0 到 100 之间的百分位数。</translation>
    </message>
    <message>
        <source>Cache bust (random prefix per run)</source>
        <translation>缓存击穿（每次运行加随机前缀）</translation>
    </message>
    <message>
        <source>End of sequence:</source>
        <translation>序列结束：</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Sampling seed:</source>
        <translation>采样种子：</translation>
    </message>
    <message>
        <source>Extra body (JSON):</source>
        <translation>附加请求体（JSON）：</translation>
    </message>
    <message>
        <source>Request parameters</source>
        <translation>请求参数</translation>
    </message>
    <message>
        <source>Ignore EOS</source>
        <translation>忽略 EOS</translation>
    </message>
    <message>
        <source>Sends ignore_eos: true (vLLM), so every request produces the dataset&apos;s output length and runs stay comparable</source>
        <translation>发送 ignore_eos: true（vLLM），使每个请求都生成数据集给定的输出长度，各次运行保持可比</translation>
    </message>
    <message>
        <source>empty: not sent (the server&apos;s default)</source>
        <translation>留空：不发送（使用服务器默认值）</translation>
    </message>
    <message>
        <source>empty: not sent</source>
        <translation>留空：不发送</translation>
    </message>
    <message>
        <source>Sent as the request&apos;s &quot;seed&quot;; the arrival schedule&apos;s seed is the Seed above</source>
        <translation>作为请求的 &quot;seed&quot; 发送；到达时间表的种子是上面的“种子”</translation>
    </message>
    <message>
        <source>A JSON object merged into every request body</source>
        <translation>合并进每个请求体的 JSON 对象</translation>
    </message>
    <message>
        <source>A number from 0 upwards (0 is greedy), or empty.</source>
        <translation>大于等于 0 的数（0 为贪心解码），或留空。</translation>
    </message>
    <message>
        <source>A whole number from 0 to 9223372036854775807, or empty.</source>
        <translation>0 到 9223372036854775807 之间的整数，或留空。</translation>
    </message>
    <message>
        <source>Not valid JSON at character %1: %2</source>
        <translation>第 %1 个字符处不是有效的 JSON：%2</translation>
    </message>
    <message>
        <source>A JSON object, e.g. {&quot;top_p&quot;: 0.9}.</source>
        <translation>一个 JSON 对象，例如 {&quot;top_p&quot;: 0.9}。</translation>
    </message>
    <message>
        <source>Trace replay (JSONL):</source>
        <translation>轨迹回放（JSONL）：</translation>
    </message>
    <message>
        <source>Trace time scale:</source>
        <translation>轨迹时间缩放：</translation>
    </message>
    <message>
        <source>MLPerf preset:</source>
        <translation>MLPerf 预设：</translation>
    </message>
    <message>
        <source>TTFT bound (ms):</source>
        <translation>TTFT 上限（ms）：</translation>
    </message>
    <message>
        <source>TPOT bound (ms):</source>
        <translation>TPOT 上限（ms）：</translation>
    </message>
    <message>
        <source>Bound percentile:</source>
        <translation>上限百分位：</translation>
    </message>
    <message>
        <source>Minimum queries:</source>
        <translation>最少查询数：</translation>
    </message>
    <message>
        <source>Minimum duration (s):</source>
        <translation>最短时长（秒）：</translation>
    </message>
    <message>
        <source>Run as:</source>
        <translation>运行方式：</translation>
    </message>
    <message>
        <source>Sweep rates:</source>
        <translation>扫描速率数：</translation>
    </message>
    <message>
        <source>Search tolerance:</source>
        <translation>搜索容差：</translation>
    </message>
    <message>
        <source>HTTP client:</source>
        <translation>HTTP 客户端：</translation>
    </message>
    <message>
        <source>MLPerf scenario constraints</source>
        <translation>MLPerf 场景约束</translation>
    </message>
    <message>
        <source>Execution</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>none (bounds below)</source>
        <translation>无（使用下方上限）</translation>
    </message>
    <message>
        <source>scenario default (Server 99, SingleStream 90)</source>
        <translation>场景默认值（Server 99，SingleStream 90）</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>不检查</translation>
    </message>
    <message>
        <source>The Server scenario is VALID when TTFT at the bound percentile stays under this (with early stopping)</source>
        <translation>当上限百分位处的 TTFT 低于此值（并满足提前停止）时，Server 场景为 VALID</translation>
    </message>
    <message>
        <source>empty: arrivals from the rate above</source>
        <translation>留空：按上方速率生成到达时间</translation>
    </message>
    <message>
        <source>Replays send times and lengths from a JSONL trace: one object per line with timestamp, input_tokens (or prompt) and output_tokens</source>
        <translation>按 JSONL 轨迹回放发送时间和长度：每行一个对象，包含 timestamp、input_tokens（或 prompt）和 output_tokens</translation>
    </message>
    <message>
        <source>Multiplies the trace&apos;s times: 0.5 replays twice as fast</source>
        <translation>轨迹时间乘以此值：0.5 表示以两倍速度回放</translation>
    </message>
    <message>
        <source>One run</source>
        <translation>单次运行</translation>
    </message>
    <message>
        <source>Rate sweep (synchronous, max throughput, rates between)</source>
        <translation>速率扫描（同步基线、最大吞吐量及其间的速率）</translation>
    </message>
    <message>
        <source>Search the highest VALID Server rate</source>
        <translation>搜索最高的 VALID Server 速率</translation>
    </message>
    <message>
        <source>Rates between the synchronous baseline and the maximum throughput</source>
        <translation>介于同步基线与最大吞吐量之间的速率数</translation>
    </message>
    <message>
        <source>The search stops when the bracket is narrower than this fraction of the maximum throughput</source>
        <translation>当搜索区间窄于最大吞吐量的此比例时停止搜索</translation>
    </message>
    <message>
        <source>socket (kernel receive times)</source>
        <translation>socket（内核接收时间）</translation>
    </message>
    <message>
        <source>Qt network manager pool</source>
        <translation>Qt 网络管理器池</translation>
    </message>
    <message>
        <source>Trace to replay</source>
        <translation>要回放的轨迹</translation>
    </message>
    <message>
        <source>JSONL traces (*.jsonl);;All files (*)</source>
        <translation>JSONL 轨迹 (*.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Trace format:</source>
        <translation>轨迹格式：</translation>
    </message>
    <message>
        <source>Trace block size (tokens):</source>
        <translation>轨迹块大小（词元）：</translation>
    </message>
    <message>
        <source>Sessions:</source>
        <translation>会话数：</translation>
    </message>
    <message>
        <source>Session rate (sessions/s):</source>
        <translation>会话速率（会话/秒）：</translation>
    </message>
    <message>
        <source>Users (closed loop):</source>
        <translation>用户数（闭环）：</translation>
    </message>
    <message>
        <source>History:</source>
        <translation>历史：</translation>
    </message>
    <message>
        <source>Think time:</source>
        <translation>思考时间：</translation>
    </message>
    <message>
        <source>Think time (ms):</source>
        <translation>思考时间（ms）：</translation>
    </message>
    <message>
        <source>Session header:</source>
        <translation>会话请求头：</translation>
    </message>
    <message>
        <source>ServeBench (timestamp s, input_tokens, output_tokens)</source>
        <translation>ServeBench（timestamp 秒，input_tokens，output_tokens）</translation>
    </message>
    <message>
        <source>Mooncake (timestamp ms, input_length, output_length, hash_ids)</source>
        <translation>Mooncake（timestamp ms，input_length，output_length，hash_ids）</translation>
    </message>
    <message>
        <source>Mooncake: tokens per hash id (512 in the published traces)</source>
        <translation>Mooncake：每个哈希 ID 的词元数（公开轨迹中为 512）</translation>
    </message>
    <message>
        <source>Sessions (multi-turn datasets)</source>
        <translation>会话（多轮数据集）</translation>
    </message>
    <message>
        <source>all at once</source>
        <translation>全部同时开始</translation>
    </message>
    <message>
        <source>Sessions arriving per second (open loop); the arrival process and burstiness above apply</source>
        <translation>每秒到达的会话数（开环）；适用上面的到达过程与突发度</translation>
    </message>
    <message>
        <source>Closed loop: this many users, each starting its next session when the last one ends</source>
        <translation>闭环：这么多用户，每个用户在上一个会话结束时开始下一个</translation>
    </message>
    <message>
        <source>Served answers (realistic)</source>
        <translation>服务器返回的回答（真实）</translation>
    </message>
    <message>
        <source>Reference answers (reproducible)</source>
        <translation>参考回答（可复现）</translation>
    </message>
    <message>
        <source>What a turn resends of the earlier answers: what the server streamed, or the dataset&apos;s own answers</source>
        <translation>每轮重新发送的早先回答：服务器流式返回的内容，或数据集自带的回答</translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Exponential (mean below)</source>
        <translation>指数分布（均值见下）</translation>
    </message>
    <message>
        <source>From the dataset (think_time_ms)</source>
        <translation>取自数据集（think_time_ms）</translation>
    </message>
    <message>
        <source>The pause between a turn&apos;s answer and the next turn&apos;s send</source>
        <translation>一轮回答结束到下一轮发送之间的停顿</translation>
    </message>
    <message>
        <source>e.g. X-Session-ID (empty: none)</source>
        <translation>例如 X-Session-ID（空：不发送）</translation>
    </message>
    <message>
        <source>A header carrying the session&apos;s id, for routers that pin sessions to a replica</source>
        <translation>携带会话 ID 的请求头，供把会话固定到某个副本的路由器使用</translation>
    </message>
    <message>
        <source>Connections:</source>
        <translation>连接：</translation>
    </message>
    <message>
        <source>Idle timeout (s, 0 = none):</source>
        <translation>空闲超时（秒，0 = 不限）：</translation>
    </message>
    <message>
        <source>Warm (opened before the clock)</source>
        <translation>预热（计时开始前建立）</translation>
    </message>
    <message>
        <source>New per request (as vLLM&apos;s client)</source>
        <translation>每个请求新建（同 vLLM 客户端）</translation>
    </message>
    <message>
        <source>Lazy (opened on demand, kept alive)</source>
        <translation>按需（需要时建立并保持）</translation>
    </message>
    <message>
        <source>Warm keeps connection set-up out of every request&apos;s times; per-request puts a handshake into every TTFT, like vLLM&apos;s benchmark client. The summary shows TTFT without set-up.</source>
        <translation>预热模式使连接建立不计入任何请求的时间；每请求新建模式让每个 TTFT 都包含一次握手，与 vLLM 的基准客户端相同。摘要会给出不含连接建立的 TTFT。</translation>
    </message>
    <message>
        <source>A response that sends nothing for this long fails as a timeout, whatever its total timeout.</source>
        <translation>响应若在这段时间内没有发送任何数据，则按超时失败，与总超时无关。</translation>
    </message>
    <message>
        <source>Repeat runs:</source>
        <translation>重复运行：</translation>
    </message>
    <message>
        <source>Run the plan this many times as a series (--num-runs): each run is stored on its own, and comparisons test candidates over runs (the mean of the runs with its 95 % interval). One run only for sweeps and searches.</source>
        <translation>把方案作为一个系列运行这么多次（--num-runs）：每次运行单独保存，比较时按运行检验候选（各次运行的均值及其 95 % 区间）。扫描和搜索只运行一次。</translation>
    </message>
    <message>
        <source>Server metrics every (s):</source>
        <translation>服务器指标采集间隔（秒）：</translation>
    </message>
    <message>
        <source>How often the server&apos;s Prometheus metrics are scraped during a run, besides once before the first request and once after the last (the SUT&apos;s scrape setting says what is scraped)</source>
        <translation>运行期间采集服务器 Prometheus 指标的频率；此外在第一个请求之前和最后一个请求之后各采集一次（采集什么由被测系统的采集设置决定）</translation>
    </message>
    <message>
        <source>Items per request:</source>
        <translation>每个请求的项数：</translation>
    </message>
    <message>
        <source>Prefix-cache reset:</source>
        <translation>前缀缓存重置：</translation>
    </message>
    <message>
        <source>Cancel requests (%):</source>
        <translation>取消请求（%）：</translation>
    </message>
    <message>
        <source>Cancel delay (s):</source>
        <translation>取消延迟（秒）：</translation>
    </message>
    <message>
        <source>Or cancel after tokens:</source>
        <translation>或在若干 token 后取消：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>This share of the requests, chosen from the seed, is cancelled by the client: counted apart, neither a failure nor part of the latency statistics</source>
        <translation>按种子选出的这一比例的请求由客户端取消：单独计数，既不算失败，也不计入延迟统计</translation>
    </message>
    <message>
        <source>Seconds from the request being fully written to its cancel</source>
        <translation>从请求完整写出到取消的秒数</translation>
    </message>
    <message>
        <source>off (after the delay)</source>
        <translation>关闭（按延迟取消）</translation>
    </message>
    <message>
        <source>Cancel once this many token chunks arrived, instead of after the delay</source>
        <translation>收到这么多 token 块后即取消，而不是按延迟取消</translation>
    </message>
    <message>
        <source>none: the cache as earlier traffic left it</source>
        <translation>不重置：缓存保持先前流量留下的状态</translation>
    </message>
    <message>
        <source>reset before the run; no run without a reset</source>
        <translation>运行前重置；无法重置则不运行</translation>
    </message>
    <message>
        <source>reset before the run; cache bust without a reset</source>
        <translation>运行前重置；无法重置则改用缓存击穿</translation>
    </message>
    <message>
        <source>Calls the engine&apos;s own prefix-cache reset before the run (vLLM POST /reset_prefix_cache, SGLang POST /flush_cache) and checks on its prefix-cache counters that the first requests found nothing cached</source>
        <translation>运行前调用引擎自身的前缀缓存重置（vLLM POST /reset_prefix_cache，SGLang POST /flush_cache），并通过其前缀缓存计数器核实前几个请求没有命中任何缓存</translation>
    </message>
    <message>
        <source>Embeddings and rerank endpoints only: dataset items per request (the inputs of an embeddings request, the documents of a rerank request; vLLM&apos;s --random-batch-size)</source>
        <translation>仅用于嵌入和重排序端点：每个请求包含的数据集项数（嵌入请求的输入、重排序请求的文档；即 vLLM 的 --random-batch-size）</translation>
    </message>
</context>
<context>
    <name>sb::MainWindow</name>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Bills, test windows and the unit cost of the project&apos;s runs</source>
        <translation>账单、测试时间窗以及项目中各次运行的单位成本</translation>
    </message>
    <message>
        <source>About ServeBench</source>
        <translation>关于 ServeBench</translation>
    </message>
    <message>
        <source>&lt;b&gt;ServeBench %1&lt;/b&gt;&lt;p&gt;A workbench for choosing an LLM serving platform on evidence: the same streamed benchmark against every candidate, with TTFT, TPOT, ITL, throughput and cost traceable to raw records.&lt;/p&gt;</source>
        <translation>&lt;b&gt;ServeBench %1&lt;/b&gt;&lt;p&gt;用证据选择 LLM 推理服务平台的工作台：对每个候选平台运行相同的流式基准测试，TTFT、TPOT、ITL、吞吐量和成本均可追溯到原始记录。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Project</source>
        <translation>项目(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;New Project</source>
        <translation>新建项目(&amp;N)</translation>
    </message>
    <message>
        <source>Start a project with the built-in simulator, a synthetic dataset and a Poisson load profile</source>
        <translation>新建一个包含内置模拟器、合成数据集和泊松负载配置的项目</translation>
    </message>
    <message>
        <source>&amp;Open Project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a ServeBench project file</source>
        <translation>打开 ServeBench 项目文件</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the project&apos;s SUTs, datasets and load profiles</source>
        <translation>保存项目中的被测系统、数据集和负载配置</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Write the whole project, runs included, to a new file</source>
        <translation>将整个项目（包括运行记录）写入新文件</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Add &amp;SUT</source>
        <translation>添加被测系统(&amp;S)</translation>
    </message>
    <message>
        <source>Describe another system under test</source>
        <translation>描述另一个被测系统</translation>
    </message>
    <message>
        <source>Add &amp;Dataset</source>
        <translation>添加数据集(&amp;D)</translation>
    </message>
    <message>
        <source>Add a dataset; you can also drop a .json or .jsonl file on the window</source>
        <translation>添加数据集；也可以将 .json 或 .jsonl 文件拖放到窗口上</translation>
    </message>
    <message>
        <source>Add &amp;Load Profile</source>
        <translation>添加负载配置(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <source>Run the selected SUT × dataset × load profile (F5)</source>
        <translation>运行所选的被测系统 × 数据集 × 负载配置（F5）</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Stop the run and cancel the requests in flight (Esc)</source>
        <translation>停止运行并取消在途请求（Esc）</translation>
    </message>
    <message>
        <source>&amp;About ServeBench</source>
        <translation>关于 ServeBench(&amp;A)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Run plan</source>
        <translation>运行计划</translation>
    </message>
    <message>
        <source> SUT: </source>
        <translation> 被测系统：</translation>
    </message>
    <message>
        <source> Dataset: </source>
        <translation> 数据集：</translation>
    </message>
    <message>
        <source> Load profile: </source>
        <translation> 负载配置：</translation>
    </message>
    <message>
        <source>System under test the run measures</source>
        <translation>本次运行要测量的被测系统</translation>
    </message>
    <message>
        <source>Where the prompts come from</source>
        <translation>提示词的来源</translation>
    </message>
    <message>
        <source>How requests are issued</source>
        <translation>请求的发出方式</translation>
    </message>
    <message>
        <source>Editor</source>
        <translation>编辑器</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Edit the item selected in the project tree</source>
        <translation>编辑项目树中选中的条目</translation>
    </message>
    <message>
        <source>Live view of the running benchmark</source>
        <translation>正在进行的基准测试的实时视图</translation>
    </message>
    <message>
        <source>Summary and requests of the selected run</source>
        <translation>所选运行的汇总和请求</translation>
    </message>
    <message>
        <source>&lt;h2&gt;ServeBench&lt;/h2&gt;&lt;p&gt;Select a SUT, dataset or load profile in the project tree to edit it.&lt;/p&gt;&lt;p&gt;Press &lt;b&gt;F5&lt;/b&gt; to run the plan shown in the toolbar. A new project runs against the built-in simulator, so no server is needed.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;ServeBench&lt;/h2&gt;&lt;p&gt;在项目树中选择被测系统、数据集或负载配置即可编辑。&lt;/p&gt;&lt;p&gt;按 &lt;b&gt;F5&lt;/b&gt; 运行工具栏中显示的计划。新项目使用内置模拟器运行，无需任何服务器。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Press F5 to start a run.</source>
        <translation>按 F5 开始运行。</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The project &quot;%1&quot; has unsaved changes. Save them?</source>
        <translation>项目“%1”有未保存的更改。是否保存？</translation>
    </message>
    <message>
        <source>%1[*] — ServeBench</source>
        <translation>%1[*] — ServeBench</translation>
    </message>
    <message>
        <source>Fix the highlighted fields of the editor first</source>
        <translation>请先修正编辑器中标出的字段</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Preparing run …</source>
        <translation>正在准备运行…</translation>
    </message>
    <message>
        <source>Running: %1 / %2 requests done</source>
        <translation>运行中：已完成 %1 / %2 个请求</translation>
    </message>
    <message>
        <source>Finishing …</source>
        <translation>正在收尾…</translation>
    </message>
    <message>
        <source>Loading the run&apos;s records …</source>
        <translation>正在加载该运行的记录…</translation>
    </message>
    <message>
        <source>New SUT</source>
        <translation>新被测系统</translation>
    </message>
    <message>
        <source>New dataset</source>
        <translation>新数据集</translation>
    </message>
    <message>
        <source>New load profile</source>
        <translation>新负载配置</translation>
    </message>
    <message>
        <source>Removed &quot;%1&quot;. Save to remove it from the project file.</source>
        <translation>已删除“%1”。保存后才会从项目文件中删除。</translation>
    </message>
    <message>
        <source>New project: press F5 to run against the built-in simulator.</source>
        <translation>新项目：按 F5 使用内置模拟器运行。</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>ServeBench projects (*.sbproj);;All files (*)</source>
        <translation>ServeBench 项目 (*.sbproj);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Opened %1: %2 SUTs, %3 datasets, %4 load profiles, %5 runs.</source>
        <translation>已打开 %1：%2 个被测系统、%3 个数据集、%4 个负载配置、%5 次运行。</translation>
    </message>
    <message>
        <source>Saving failed: %1</source>
        <translation>保存失败：%1</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation>项目另存为</translation>
    </message>
    <message>
        <source>ServeBench projects (*.sbproj)</source>
        <translation>ServeBench 项目 (*.sbproj)</translation>
    </message>
    <message>
        <source>(no recent projects)</source>
        <translation>（没有最近的项目）</translation>
    </message>
    <message>
        <source>The translation for %1 is missing; staying with English.</source>
        <translation>缺少 %1 的翻译；继续使用英文。</translation>
    </message>
    <message>
        <source>Choose a SUT, a dataset and a load profile first.</source>
        <translation>请先选择被测系统、数据集和负载配置。</translation>
    </message>
    <message>
        <source>Fix the highlighted fields of the editor first.</source>
        <translation>请先修正编辑器中标出的字段。</translation>
    </message>
    <message>
        <source>Note: this dataset already ran against this SUT without cache bust; the server&apos;s prefix cache may be warm.</source>
        <translation>注意：此数据集已在未启用缓存击穿的情况下对该被测系统运行过；服务器的前缀缓存可能已预热。</translation>
    </message>
    <message>
        <source>Running %1 …</source>
        <translation>正在运行 %1…</translation>
    </message>
    <message>
        <source>Run finished. See Results.</source>
        <translation>运行结束。请查看“结果”。</translation>
    </message>
    <message>
        <source>Cannot load the run: %1</source>
        <translation>无法加载该运行：%1</translation>
    </message>
    <message>
        <source>Showing %1 (%2 requests).</source>
        <translation>正在显示 %1（%2 个请求）。</translation>
    </message>
    <message>
        <source>Added dataset %1.</source>
        <translation>已添加数据集 %1。</translation>
    </message>
    <message>
        <source>Running: %1 requests done</source>
        <translation>运行中：已完成 %1 个请求</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Compare runs side by side: comparability, differences, ranking, distributions and latency-versus-throughput curves</source>
        <translation>并排比较运行：可比性、差异、排名、分布以及延迟-吞吐量曲线</translation>
    </message>
    <message>
        <source>Sweep point %1 of %2: %3</source>
        <translation>扫描点 %1/%2：%3</translation>
    </message>
    <message>
        <source>Highest VALID Server rate: %1 req/s (to within %2 % of the maximum throughput %3 req/s).</source>
        <translation>最高的 VALID Server 速率：%1 req/s（精度为最大吞吐量 %3 req/s 的 %2 %）。</translation>
    </message>
    <message>
        <source>No Server rate tried was VALID (lowest tried: %1 req/s).</source>
        <translation>尝试的 Server 速率均不 VALID（尝试的最低速率：%1 req/s）。</translation>
    </message>
    <message>
        <source>Sweep finished: %1 runs.</source>
        <translation>扫描完成：%1 次运行。</translation>
    </message>
    <message>
        <source>Prefix-cache &amp;audit of the SUT…</source>
        <translation>对该 SUT 进行前缀缓存审计(&amp;A)…</translation>
    </message>
    <message>
        <source>Sends prompts cold, repeated and cold again, and tells whether the server&apos;s prefix cache makes repeated prompts faster</source>
        <translation>以冷、重复、再冷的方式发送提示，判断服务器的前缀缓存是否让重复的提示更快</translation>
    </message>
    <message>
        <source>Cannot record the run: %1</source>
        <translation>无法记录此次运行：%1</translation>
    </message>
    <message>
        <source>Choose a SUT first.</source>
        <translation>请先选择一个 SUT。</translation>
    </message>
    <message>
        <source>P99 TTFT %1 ms</source>
        <translation>P99 TTFT %1 ms</translation>
    </message>
    <message>
        <source>output throughput %1 tok/s</source>
        <translation>输出吞吐量 %1 tok/s</translation>
    </message>
    <message>
        <source>Series finished: %1 runs. Mean over runs with its 95 % interval: %2.</source>
        <translation>系列完成：%1 次运行。各次运行的均值及其 95 % 区间：%2。</translation>
    </message>
    <message>
        <source>none computed</source>
        <translation>未计算</translation>
    </message>
    <message>
        <source>This run has %1 requests: `servebench-cli show` prints its summary.</source>
        <translation>此运行有 %1 个请求：`servebench-cli show` 可打印其摘要。</translation>
    </message>
    <message>
        <source>Showing %1 (%2 requests, read from the project file as they are shown).</source>
        <translation>正在显示 %1（%2 个请求，显示时从项目文件读取）。</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>研究</translation>
    </message>
    <message>
        <source>Selection studies: candidates × scenarios × repeats in an interleaved order, ending in one decision with costs</source>
        <translation>选型研究：候选 × 场景 × 重复，按交错顺序运行，最终得出一个含成本的决策</translation>
    </message>
    <message>
        <source>The last project, %1, is no longer there; started a new project.</source>
        <translation>上次的项目 %1 已不存在；已新建项目。</translation>
    </message>
</context>
<context>
    <name>sb::ProjectDocument</name>
    <message>
        <source>Built-in simulator</source>
        <translation>内置模拟器</translation>
    </message>
    <message>
        <source>Started in-process on a free port when a run uses it: TTFT 50 ms, 10 ms per token.</source>
        <translation>运行需要时在进程内的空闲端口上启动：TTFT 50 ms，每个 token 10 ms。</translation>
    </message>
    <message>
        <source>Synthetic 256 → 64 tokens</source>
        <translation>合成数据 256 → 64 token</translation>
    </message>
    <message>
        <source>Poisson 20 req/s</source>
        <translation>泊松 20 请求/秒</translation>
    </message>
    <message>
        <source>The project has no file yet: use Save As.</source>
        <translation>项目尚无文件：请使用“另存为”。</translation>
    </message>
    <message>
        <source>Cannot replace %1.</source>
        <translation>无法替换 %1。</translation>
    </message>
    <message>
        <source>Untitled project</source>
        <translation>未命名项目</translation>
    </message>
    <message>
        <source>The run no longer exists.</source>
        <translation>该运行已不存在。</translation>
    </message>
    <message>
        <source>The project has no file to copy.</source>
        <translation>项目没有可复制的文件。</translation>
    </message>
    <message>
        <source>The run&apos;s SUT, dataset or load profile no longer exists.</source>
        <translation>此次运行的 SUT、数据集或负载配置已不存在。</translation>
    </message>
    <message>
        <source>The project has no file to record the run in.</source>
        <translation>项目没有可记录运行的文件。</translation>
    </message>
</context>
<context>
    <name>sb::ProjectRunner</name>
    <message>
        <source>A run is already in progress.</source>
        <translation>已有一个运行正在进行。</translation>
    </message>
    <message>
        <source>Built-in simulator listening on %1.</source>
        <translation>内置模拟器正在监听 %1。</translation>
    </message>
    <message>
        <source>Reading the API key …</source>
        <translation>正在读取 API 密钥…</translation>
    </message>
    <message>
        <source>Run cancelled before it started.</source>
        <translation>运行在开始前已取消。</translation>
    </message>
    <message>
        <source>Stopping: cancelling the requests in flight …</source>
        <translation>正在停止：取消在途请求…</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>已被用户停止</translation>
    </message>
    <message>
        <source>the run failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <source>Run finished: %1 of %2 requests succeeded.</source>
        <translation>运行结束：%2 个请求中 %1 个成功。</translation>
    </message>
    <message>
        <source>Run finished and saved: %1 of %2 requests succeeded.</source>
        <translation>运行结束并已保存：%2 个请求中 %1 个成功。</translation>
    </message>
    <message>
        <source>Run started: %1</source>
        <translation>运行已开始：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The project file cannot record the run: %1</source>
        <translation>项目文件无法记录此次运行：%1</translation>
    </message>
    <message>
        <source>The run ended early: %1</source>
        <translation>运行提前结束：%1</translation>
    </message>
    <message>
        <source>Reading the token of a metrics target from the keychain …</source>
        <translation>正在从密钥链读取指标目标的令牌…</translation>
    </message>
</context>
<context>
    <name>sb::ProjectTreeModel</name>
    <message>
        <source>Systems under test</source>
        <translation>被测系统</translation>
    </message>
    <message>
        <source>Datasets</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Load profiles</source>
        <translation>负载配置</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>(unknown SUT)</source>
        <translation>（未知被测系统）</translation>
    </message>
    <message>
        <source>Sweep: %1</source>
        <translation>扫描：%1</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>（未命名）</translation>
    </message>
    <message>
        <source>%1
Status: %2
Started: %3
Requests: %4</source>
        <translation>%1
状态：%2
开始时间：%3
请求数：%4</translation>
    </message>
    <message>
        <source>Built-in simulator (started when a run uses it)</source>
        <translation>内置模拟器（运行需要时启动）</translation>
    </message>
    <message>
        <source>Study: %1</source>
        <translation>研究：%1</translation>
    </message>
</context>
<context>
    <name>sb::RequestTableModel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Sent (s)</source>
        <translation>发送时间（秒）</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>TTFT（ms）</translation>
    </message>
    <message>
        <source>TPOT (ms)</source>
        <translation>TPOT（ms）</translation>
    </message>
    <message>
        <source>E2EL (ms)</source>
        <translation>E2EL（ms）</translation>
    </message>
    <message>
        <source>ITL mean (ms)</source>
        <translation>ITL 均值（ms）</translation>
    </message>
    <message>
        <source>ITL max (ms)</source>
        <translation>ITL 最大值（ms）</translation>
    </message>
    <message>
        <source>Input tok</source>
        <translation>输入 token</translation>
    </message>
    <message>
        <source>Input source</source>
        <translation>输入来源</translation>
    </message>
    <message>
        <source>Output tok</source>
        <translation>输出 token</translation>
    </message>
    <message>
        <source>Output source</source>
        <translation>输出来源</translation>
    </message>
    <message>
        <source>Sched. lag (ms)</source>
        <translation>调度滞后（ms）</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>Finish</source>
        <translation>结束原因</translation>
    </message>
    <message>
        <source>Error message</source>
        <translation>错误信息</translation>
    </message>
    <message>
        <source>Request id</source>
        <translation>请求 ID</translation>
    </message>
    <message>
        <source>Position in the run&apos;s schedule (0-based)</source>
        <translation>在本次运行时间表中的位置（从 0 开始）</translation>
    </message>
    <message>
        <source>t_send, seconds after the run started</source>
        <translation>t_send，自运行开始起的秒数</translation>
    </message>
    <message>
        <source>Mean of this request&apos;s inter-token gaps.
</source>
        <translation>该请求各 token 间隔的均值。
</translation>
    </message>
    <message>
        <source>Largest of this request&apos;s inter-token gaps.
</source>
        <translation>该请求各 token 间隔中的最大值。
</translation>
    </message>
    <message>
        <source>Where the token count came from: server_usage (the stream&apos;s usage), chunk_count (one token per chunk, counted here) or dataset</source>
        <translation>token 数的来源：server_usage（流中的 usage）、chunk_count（每块计一个 token，由本工具计数）或 dataset（数据集）</translation>
    </message>
</context>
<context>
    <name>sb::ResultsView</name>
    <message>
        <source>MLPerf-style validity</source>
        <translation>MLPerf 式有效性</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Over time</source>
        <translation>随时间变化</translation>
    </message>
    <message>
        <source>Failed only</source>
        <translation>仅失败请求</translation>
    </message>
    <message>
        <source>Filter: error class, message, request id, …</source>
        <translation>筛选：错误类别、信息、请求 ID…</translation>
    </message>
    <message>
        <source>Copy as TSV</source>
        <translation>复制为 TSV</translation>
    </message>
    <message>
        <source>%1 CDF</source>
        <translation>%1 CDF</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1（ms）</translation>
    </message>
    <message>
        <source>fraction ≤ x</source>
        <translation>比例 ≤ x</translation>
    </message>
    <message>
        <source>%1 histogram</source>
        <translation>%1 直方图</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>gaps</source>
        <translation>间隔数</translation>
    </message>
    <message>
        <source>time since start (s)</source>
        <translation>自开始起的时间（秒）</translation>
    </message>
    <message>
        <source>Requests per second</source>
        <translation>每秒请求数</translation>
    </message>
    <message>
        <source>successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Output tokens per second</source>
        <translation>每秒输出 token 数</translation>
    </message>
    <message>
        <source>output tok/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>Requests in flight</source>
        <translation>在途请求数</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>在途</translation>
    </message>
    <message>
        <source>TTFT by send time</source>
        <translation>按发送时间的 TTFT</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>TTFT（ms）</translation>
    </message>
    <message>
        <source>Mean ITL per request by completion time</source>
        <translation>按完成时间的每请求平均 ITL</translation>
    </message>
    <message>
        <source>ITL</source>
        <translation>ITL</translation>
    </message>
    <message>
        <source>ITL (ms)</source>
        <translation>ITL（ms）</translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>未选择运行</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2 requests, scenario %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2 个请求，场景 %3</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Computing summary…</source>
        <translation>正在计算汇总…</translation>
    </message>
    <message>
        <source>VALID</source>
        <translation>VALID（有效）</translation>
    </message>
    <message>
        <source>INVALID</source>
        <translation>INVALID（无效）</translation>
    </message>
    <message>
        <source>Loading requests…</source>
        <translation>正在加载请求…</translation>
    </message>
    <message>
        <source>Drawing charts…</source>
        <translation>正在绘制图表…</translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s)</source>
        <translation>
            <numerusform>%n 个样本</numerusform>
        </translation>
    </message>
    <message>
        <source>bin %1 ms; %2 above %3 ms not drawn</source>
        <translation>区间宽 %1 ms；高于 %3 ms 的 %2 个未绘制</translation>
    </message>
    <message>
        <source>bin %1 ms</source>
        <translation>区间宽 %1 ms</translation>
    </message>
    <message>
        <source>Failed only (%1)</source>
        <translation>仅失败请求（%1）</translation>
    </message>
    <message>
        <source>%1 of %2 requests</source>
        <translation>%2 个请求中的 %1 个</translation>
    </message>
    <message>
        <source>Schedule lag by send time</source>
        <translation>按发送时间的调度滞后</translation>
    </message>
    <message>
        <source>schedule lag</source>
        <translation>调度滞后</translation>
    </message>
    <message>
        <source>t_send − t_sched (ms)</source>
        <translation>t_send − t_sched（ms）</translation>
    </message>
    <message>
        <source>n/a — %1: %2</source>
        <translation>不可用 — %1：%2</translation>
    </message>
    <message>
        <source>MLPerf judgement not possible: %1</source>
        <translation>无法进行 MLPerf 判定：%1</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>%1: interval omitted: %2</source>
        <translation>%1：区间已省略：%2</translation>
    </message>
    <message>
        <source>Show 95 % intervals in the table</source>
        <translation>在表中显示 95 % 区间</translation>
    </message>
    <message>
        <source>Each statistic with its 95 % confidence interval within this run, as value [low, high] (Student t for means, order statistics for percentiles, a bootstrap over requests for ITL). The tooltips always give them.</source>
        <translation>每个统计量及其在本次运行内的 95 % 置信区间，显示为 值 [下限, 上限]（均值用学生 t 分布，百分位数用顺序统计量，ITL 用按请求的自助法）。工具提示中始终给出区间。</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Sorting and filtering the requests…</source>
        <translation>正在排序和筛选请求…</translation>
    </message>
    <message>
        <source>Cannot read the run from the project file: %1</source>
        <translation>无法从项目文件读取该运行：%1</translation>
    </message>
    <message numerus="yes">
        <source>Copying %n request(s)…</source>
        <translation>
            <numerusform>正在复制 %n 个请求…</numerusform>
        </translation>
    </message>
    <message>
        <source>open loop</source>
        <comment>scenario</comment>
        <translation>开环</translation>
    </message>
    <message>
        <source>SingleStream</source>
        <comment>scenario</comment>
        <translation>SingleStream</translation>
    </message>
    <message>
        <source>Server</source>
        <comment>scenario</comment>
        <translation>Server</translation>
    </message>
    <message>
        <source>Offline</source>
        <comment>scenario</comment>
        <translation>Offline</translation>
    </message>
    <message>
        <source>Managed server: healthy %1 ms after its start command (instance %2); its output is stored in the project.</source>
        <translation>托管服务器：启动命令执行后 %1 ms 变为健康（实例 %2）；其输出已保存在项目中。</translation>
    </message>
    <message>
        <source>Prefix cache not reset (%1); fallback: %2.</source>
        <translation>前缀缓存未重置（%1）；回退方式：%2。</translation>
    </message>
    <message>
        <source>verified cold over the first %1 requests: %2 of %3 looked-up tokens hit (engine counters)</source>
        <translation>前 %1 个请求核实为冷缓存：%3 个查询 token 中命中 %2 个（引擎计数器）</translation>
    </message>
    <message>
        <source>NOT cold over the first %1 requests: %2 of %3 looked-up tokens hit (engine counters)</source>
        <translation>前 %1 个请求并非冷缓存：%3 个查询 token 中命中 %2 个（引擎计数器）</translation>
    </message>
    <message>
        <source>unverified over the first %1 requests: %2 of %3 looked-up tokens hit (engine counters)</source>
        <translation>前 %1 个请求未能核实：%3 个查询 token 中命中 %2 个（引擎计数器）</translation>
    </message>
    <message>
        <source>verified cold over the first %1 requests: %2 cached tokens in their usage</source>
        <translation>前 %1 个请求核实为冷缓存：其用量中有 %2 个缓存 token</translation>
    </message>
    <message>
        <source>NOT cold over the first %1 requests: %2 cached tokens in their usage</source>
        <translation>前 %1 个请求并非冷缓存：其用量中有 %2 个缓存 token</translation>
    </message>
    <message>
        <source>unverified: the server exports no prefix-cache counters</source>
        <translation>未能核实：服务器未导出前缀缓存计数器</translation>
    </message>
    <message>
        <source>Prefix cache reset by POST %1 (HTTP %2, %3 ms); %4.</source>
        <translation>前缀缓存已通过 POST %1 重置（HTTP %2，%3 ms）；%4。</translation>
    </message>
</context>
<context>
    <name>sb::RunDashboard</name>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Requests handed to the transport</source>
        <translation>已交给传输层的请求</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Requests finished, successful or not</source>
        <translation>已结束的请求（无论成功与否）</translation>
    </message>
    <message>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Completed without an error</source>
        <translation>无错误完成的请求</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Failed requests by error class</source>
        <translation>按错误类别统计的失败请求</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>在途</translation>
    </message>
    <message>
        <source>Sent and not yet completed</source>
        <translation>已发送但尚未完成</translation>
    </message>
    <message>
        <source>Schedule lag p99</source>
        <translation>调度滞后 p99</translation>
    </message>
    <message>
        <source>p99 of t_send − t_sched over the measured requests so far. Large lag means the client, not the server, limited the run.</source>
        <translation>到目前为止被测请求的 t_send − t_sched 的 p99。滞后大说明限制本次运行的是客户端而不是服务器。</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>已用时间</translation>
    </message>
    <message>
        <source>Since the run&apos;s start</source>
        <translation>自运行开始起</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop issuing requests and cancel those in flight; what was recorded is kept and the run is marked interrupted</source>
        <translation>停止发送请求并取消在途请求；已记录的内容会保留，运行标记为已中断</translation>
    </message>
    <message>
        <source>time since start (s)</source>
        <translation>自开始起的时间（秒）</translation>
    </message>
    <message>
        <source>TTFT by send time</source>
        <translation>按发送时间的 TTFT</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Mean ITL per request</source>
        <translation>每请求平均 ITL</translation>
    </message>
    <message>
        <source>ITL</source>
        <translation>ITL</translation>
    </message>
    <message>
        <source>Latency CDF (measured requests)</source>
        <translation>延迟 CDF（被测请求）</translation>
    </message>
    <message>
        <source>E2EL</source>
        <translation>E2EL</translation>
    </message>
    <message>
        <source>fraction ≤ x</source>
        <translation>比例 ≤ x</translation>
    </message>
    <message>
        <source>Completed requests per second</source>
        <translation>每秒完成请求数</translation>
    </message>
    <message>
        <source>successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Output tokens per second</source>
        <translation>每秒输出 token 数</translation>
    </message>
    <message>
        <source>output tok/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>Tokens by chunk arrival time. A request&apos;s tokens are known when it completes, so the latest seconds fill in as streams end.</source>
        <translation>按块到达时间统计的 token。请求的 token 数在其完成时才能确定，因此最近几秒的数值会随流的结束逐渐补齐。</translation>
    </message>
    <message>
        <source>In flight and errors</source>
        <translation>在途请求与错误</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>在途</translation>
    </message>
    <message>
        <source>errors/s</source>
        <translation>错误/秒</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>预计剩余 %1</translation>
    </message>
    <message>
        <source>Engine queue (scraped)</source>
        <translation>引擎队列（采集值）</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Requests the engine reported running and waiting in its queue, at each scrape of its /metrics</source>
        <translation>每次采集 /metrics 时引擎报告的运行中和队列中等待的请求数</translation>
    </message>
    <message>
        <source>KV-cache usage (scraped)</source>
        <translation>KV 缓存占用（采集值）</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>Share of the engine&apos;s KV cache in use, as it reported it</source>
        <translation>引擎报告的 KV 缓存已用比例</translation>
    </message>
    <message>
        <source>GPU power (scraped)</source>
        <translation>GPU 功率（采集值）</translation>
    </message>
    <message>
        <source>power</source>
        <translation>功率</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>Power draw of the GPUs, summed, as the GPU exporter reported it</source>
        <translation>GPU 导出器报告的各 GPU 功率之和</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message numerus="yes">
        <source>no value in %n scrape(s): the server does not export it</source>
        <translation>
            <numerusform>%n 次采集中都没有该值：服务器未导出它</numerusform>
        </translation>
    </message>
    <message>
        <source>The client is the bottleneck: its thread %1 wanted the CPU %2 % of the second ending at %3 s (waiting for one %4 %). This run measures the client, not the server.</source>
        <translation>客户端是瓶颈：其线程 %1 在截至 %3 秒的这一秒中有 %2 % 的时间需要 CPU（等待 CPU %4 %）。这次运行测到的是客户端，而不是服务器。</translation>
    </message>
    <message numerus="yes">
        <source>%n cancelled by the load</source>
        <translation>
            <numerusform>%n 个被负载取消</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sb::RunTotalsModel</name>
    <message>
        <source>Successful requests</source>
        <translation>成功请求数</translation>
    </message>
    <message>
        <source>Failed requests</source>
        <translation>失败请求数</translation>
    </message>
    <message>
        <source>    failed: %1</source>
        <translation>    失败：%1</translation>
    </message>
    <message>
        <source>Sent requests</source>
        <translation>已发送请求数</translation>
    </message>
    <message>
        <source>Warm-up requests (excluded)</source>
        <translation>预热请求数（不计入）</translation>
    </message>
    <message>
        <source>Benchmark duration (s)</source>
        <translation>基准测试时长（秒）</translation>
    </message>
    <message>
        <source>Total input tokens</source>
        <translation>输入 token 总数</translation>
    </message>
    <message>
        <source>Total generated tokens</source>
        <translation>生成 token 总数</translation>
    </message>
    <message>
        <source>Input token source</source>
        <translation>输入 token 来源</translation>
    </message>
    <message>
        <source>Output token source</source>
        <translation>输出 token 来源</translation>
    </message>
    <message>
        <source>Cached prompt tokens</source>
        <translation>缓存命中的提示词 token</translation>
    </message>
    <message>
        <source>usage.prompt_tokens_details.cached_tokens, summed over %1 requests that reported it: prefix-cache hits</source>
        <translation>usage.prompt_tokens_details.cached_tokens，对报告该值的 %1 个请求求和：即前缀缓存命中数</translation>
    </message>
    <message>
        <source>Request throughput (req/s)</source>
        <translation>请求吞吐量（请求/秒）</translation>
    </message>
    <message>
        <source>Request goodput (req/s)</source>
        <translation>请求有效吞吐量（请求/秒）</translation>
    </message>
    <message>
        <source>Output token throughput (tok/s)</source>
        <translation>输出 token 吞吐量（token/秒）</translation>
    </message>
    <message>
        <source>Total token throughput (tok/s)</source>
        <translation>总 token 吞吐量（token/秒）</translation>
    </message>
    <message>
        <source>Achieved request rate (req/s)</source>
        <translation>实际请求速率（请求/秒）</translation>
    </message>
    <message>
        <source>Peak output token throughput (tok/s)</source>
        <translation>输出 token 吞吐量峰值（token/秒）</translation>
    </message>
    <message>
        <source>Most output tokens in one 1-second bucket counted from the first send</source>
        <translation>从首次发送起按 1 秒分桶，单个桶内输出 token 数的最大值</translation>
    </message>
    <message>
        <source>Peak concurrent requests</source>
        <translation>并发请求峰值</translation>
    </message>
    <message>
        <source>Most successful requests in flight at once over [t_send, t_last)</source>
        <translation>在 [t_send, t_last) 区间内同时在途的成功请求数的最大值</translation>
    </message>
    <message>
        <source>Multi-token chunks</source>
        <translation>多 token 块</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>Some chunks carried several tokens (speculative decoding): ITL and ITL per token differ</source>
        <translation>部分块包含多个 token（投机解码）：ITL 与每 token ITL 不同</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>Requests with reasoning</source>
        <translation>含推理的请求</translation>
    </message>
    <message>
        <source>Total reasoning tokens</source>
        <translation>推理 token 总数</translation>
    </message>
    <message>
        <source>Reasoning token source</source>
        <translation>推理 token 来源</translation>
    </message>
    <message>
        <source>Output count mismatch rate (%)</source>
        <translation>输出计数不一致率 (%)</translation>
    </message>
    <message>
        <source>Of %1 successful requests with both counts, %2 had a tokenizer count of their output other than the server&apos;s usage (Σ %3 by the server, %4 by the tokenizer). A high rate: the tokenizer is not the model&apos;s, or the server miscounts.</source>
        <translation>在同时具有两种计数的 %1 个成功请求中，有 %2 个请求的分词器输出计数与服务器的 usage 不同（服务器合计 %3，分词器合计 %4）。不一致率高说明分词器不是该模型的，或服务器计数有误。</translation>
    </message>
    <message>
        <source>Connections opened / reused / pre-opened</source>
        <translation>新建 / 复用 / 预先建立的连接</translation>
    </message>
    <message>
        <source>Of the successful requests: how many opened their own connection (its set-up is in their TTFT), found one an earlier response left, or one opened before the run&apos;s clock (warm connections)</source>
        <translation>在成功的请求中：有多少自己新建了连接（连接建立时间计入其 TTFT），有多少使用了先前响应留下的连接，有多少使用了计时开始前建立的连接（预热连接）</translation>
    </message>
    <message>
        <source>P99 connection set-up (ms)</source>
        <translation>P99 连接建立时间 (ms)</translation>
    </message>
    <message>
        <source>TCP connect (and TLS) of the requests that opened a connection: t_tls_done or t_connected minus t_connect_start</source>
        <translation>新建连接的请求的 TCP 连接（及 TLS）时间：t_tls_done 或 t_connected 减去 t_connect_start</translation>
    </message>
    <message>
        <source>P99 TTFT without set-up (ms)</source>
        <translation>P99 不含连接建立的 TTFT (ms)</translation>
    </message>
    <message>
        <source>t_first minus t_request_written: from the request&apos;s last byte handed to the kernel to its first token</source>
        <translation>t_first 减去 t_request_written：从请求的最后一个字节交给内核到收到第一个 token</translation>
    </message>
    <message>
        <source>%1 requests did not record it (the manager pool, imported runs and older project files do not)</source>
        <translation>%1 个请求未记录此项（管理器池、导入的运行和较旧的项目文件不记录）</translation>
    </message>
    <message>
        <source>Items (inputs, documents)</source>
        <translation>项（输入、文档）</translation>
    </message>
    <message>
        <source>Item throughput (items/s)</source>
        <translation>项吞吐量（项/秒）</translation>
    </message>
    <message>
        <source>Input token throughput (tok/s)</source>
        <translation>输入 token 吞吐量（token/秒）</translation>
    </message>
    <message>
        <source>Image bytes per request (mean)</source>
        <translation>每个请求的图像字节数（平均）</translation>
    </message>
    <message>
        <source>The bytes of the image files a request carried, over the %1 requests with images</source>
        <translation>请求携带的图像文件字节数，统计 %1 个带图像的请求</translation>
    </message>
</context>
<context>
    <name>sb::SchedulePreview</name>
    <message>
        <source>time since start (s)</source>
        <translation>自开始起的时间（秒）</translation>
    </message>
    <message>
        <source>requests due</source>
        <translation>应发请求数</translation>
    </message>
    <message>
        <source>Closed loop: each request is sent when one finishes; no schedule.</source>
        <translation>闭环：每完成一个请求才发送下一个；没有时间表。</translation>
    </message>
    <message>
        <source>Trace replay: arrival times come from the trace file.</source>
        <translation>轨迹回放：到达时间取自轨迹文件。</translation>
    </message>
    <message>
        <source>All %1 requests are due at once (unlimited rate).</source>
        <translation>全部 %1 个请求同时发出（速率不限）。</translation>
    </message>
    <message>
        <source>First %1 of %2 requests due over %3 s</source>
        <translation>%2 个请求中的前 %1 个在 %3 秒内发出</translation>
    </message>
    <message>
        <source>%1 requests due over %2 s</source>
        <translation>%1 个请求在 %2 秒内发出</translation>
    </message>
</context>
<context>
    <name>sb::ServerEvidenceView</name>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>Definition</source>
        <translation>定义</translation>
    </message>
    <message>
        <source>Engine queue</source>
        <translation>引擎队列</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>time since run start (s)</source>
        <translation>自运行开始的时间（秒）</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>KV-cache usage</source>
        <translation>KV 缓存占用</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>GPU 功率</translation>
    </message>
    <message>
        <source>power</source>
        <translation>功率</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>As the engine and the GPU exporter reported it at each scrape</source>
        <translation>每次采集时引擎和 GPU 导出器报告的数值</translation>
    </message>
    <message>
        <source>No server metrics were scraped during this run (the SUT&apos;s scrape setting was off, or the run predates them).</source>
        <translation>此运行期间未采集服务器指标（被测系统的采集设置为关闭，或该运行早于此功能）。</translation>
    </message>
    <message>
        <source>No server metrics target.</source>
        <translation>没有服务器指标目标。</translation>
    </message>
    <message>
        <source>Window: the measured requests&apos; first send to last completion. Counters use the scrapes just before and just after it; gauges the scrapes inside it.</source>
        <translation>时间窗：计量请求的首次发送到最后完成。计数器使用紧邻时间窗之前和之后的采集；仪表值使用时间窗内的采集。</translation>
    </message>
    <message>
        <source>%1 tokens (difference %2)</source>
        <translation>%1 个 token（差值 %2）</translation>
    </message>
    <message>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Server running requests %1 s after the last cancellation: %2; client in flight: %3</source>
        <translation>最后一次取消后 %1 秒服务器运行中的请求：%2；客户端在途请求：%3</translation>
    </message>
    <message>
        <source>Server running requests after the last cancellation: %1</source>
        <translation>最后一次取消后服务器运行中的请求：%1</translation>
    </message>
</context>
<context>
    <name>sb::SessionTurnsView</name>
    <message>
        <source>TTFT by turn</source>
        <translation>按轮次的 TTFT</translation>
    </message>
    <message>
        <source>turn</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>TTFT（ms）</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>Mean and 99th-percentile TTFT of each turn position: a prefix cache shows as TTFT falling after the first turn</source>
        <translation>每个轮次位置的 TTFT 均值与第 99 百分位：前缀缓存表现为第一轮之后 TTFT 下降</translation>
    </message>
    <message>
        <source>No sessions yet.</source>
        <translation>尚无会话。</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <source>Sessions: %1 (%2 completed, %3 failed, %4 incomplete) · turns: %5 sent, %6 not sent · history: %7 · think time: %8 ms configured, %9 ms measured (means)</source>
        <translation>会话：%1（%2 完成，%3 失败，%4 未完成）· 轮次：%5 已发送，%6 未发送 · 历史：%7 · 思考时间：配置 %8 ms，实测 %9 ms（均值）</translation>
    </message>
    <message>
        <source>Input tokens: %1 new, %2 history · prefix-cache hit rate: %3 · active sessions: peak %4, mean %5</source>
        <translation>输入词元：%1 新增，%2 历史 · 前缀缓存命中率：%3 · 活跃会话：峰值 %4，均值 %5</translation>
    </message>
</context>
<context>
    <name>sb::SignificanceModel</name>
    <message>
        <source>n/a</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>%1 − %2 at %3 (%4; n = %5 and %6 %7)</source>
        <translation>%1 − %2，%3 下（%4；n = %5 和 %6 %7）</translation>
    </message>
    <message>
        <source>%1 (CV %2 %)</source>
        <translation>%1（CV %2 %）</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Candidate value</source>
        <translation>候选值</translation>
    </message>
    <message>
        <source>Difference [%1 interval]</source>
        <translation>差异 [%1 区间]</translation>
    </message>
    <message>
        <source>Relative [%1 interval]</source>
        <translation>相对差异 [%1 区间]</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Why not / requests needed</source>
        <translation>原因 / 所需请求数</translation>
    </message>
</context>
<context>
    <name>sb::StudyDecisionModel</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>better</source>
        <translation>更好</translation>
    </message>
    <message>
        <source>worse</source>
        <translation>更差</translation>
    </message>
    <message>
        <source>no detectable difference</source>
        <translation>无可检测差异</translation>
    </message>
    <message>
        <source>not ranked</source>
        <translation>未排名</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message numerus="yes">
        <source>%1, mean over %n repeat(s) with its 95 % interval (Student&apos;s t over the repeats: run-to-run variation)</source>
        <translation>
            <numerusform>%1，%n 次重复的均值及其 95 % 区间（对各次重复做 Student t：反映运行间差异）</numerusform>
        </translation>
    </message>
    <message>
        <source>Separated: its interval does not overlap the others&apos;</source>
        <translation>已区分：其区间与其他候选不重叠</translation>
    </message>
    <message>
        <source>Tied with %1: the intervals overlap</source>
        <translation>与 %1 并列：区间重叠</translation>
    </message>
    <message>
        <source>From the test window %1</source>
        <translation>来自测试时间窗 %1</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Figure of merit [95 % interval]</source>
        <translation>评价指标 [95 % 区间]</translation>
    </message>
    <message>
        <source>Against baseline</source>
        <translation>相对基线</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>Cost / request</source>
        <translation>每请求成本</translation>
    </message>
    <message>
        <source>Cost / 1M output tokens</source>
        <translation>每百万输出 token 成本</translation>
    </message>
</context>
<context>
    <name>sb::StudyEditor</name>
    <message>
        <source>New selection study</source>
        <translation>新建选型研究</translation>
    </message>
    <message>
        <source>Edit study %1 (version %2)</source>
        <translation>编辑研究 %1（版本 %2）</translation>
    </message>
    <message>
        <source>Every scenario runs on every candidate, each cell repeated, the candidates interleaved in a seeded order; the decision ranks them per scenario with 95 % intervals and costs (docs/study.md).</source>
        <translation>每个场景都在每个候选上运行，每个单元重复多次，候选按带种子的顺序交错；决策按场景给出带 95 % 区间和成本的排名（docs/study.md）。</translation>
    </message>
    <message>
        <source>Cells of version %1 have run: saving a change starts version %2 with fresh cells, and the runs of version %1 stay with it.</source>
        <translation>版本 %1 的单元已经运行：保存修改会开始版本 %2 并使用新的单元，版本 %1 的运行仍归属于它。</translation>
    </message>
    <message>
        <source>No cell of version %1 has run yet: saving a change replaces it.</source>
        <translation>版本 %1 尚无单元运行：保存修改会替换它。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Candidates (SUTs)</source>
        <translation>候选（被测系统）</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Scenarios (load profiles)</source>
        <translation>场景（负载配置）</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>Seed (dataset and order)</source>
        <translation>种子（数据集与顺序）</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Expected dataset sha256</source>
        <translation>预期的数据集 sha256</translation>
    </message>
    <message>
        <source>Request parameters</source>
        <translation>请求参数</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>Connection mode</source>
        <translation>连接模式</translation>
    </message>
    <message>
        <source>Prefix cache</source>
        <translation>前缀缓存</translation>
    </message>
    <message>
        <source>Which platform serves our chat traffic at the lowest cost within the SLO?</source>
        <translation>在满足 SLO 的前提下，哪个平台承载我们的对话流量成本最低？</translation>
    </message>
    <message>
        <source>The dataset seed of every cell and the seed of the candidates&apos; order</source>
        <translation>每个单元的数据集种子，以及候选顺序的种子</translation>
    </message>
    <message>
        <source>The model every cell asks for (--model)</source>
        <translation>每个单元请求的模型（--model）</translation>
    </message>
    <message>
        <source>optional: without one, the first completed cell&apos;s hash is the study&apos;s</source>
        <translation>可选：不填时，以第一个完成的单元的哈希作为研究的哈希</translation>
    </message>
    <message>
        <source>Run flags sent with every request of every cell: --ignore-eos, --temperature, --request-seed, --extra-body</source>
        <translation>随每个单元的每个请求发送的运行参数：--ignore-eos、--temperature、--request-seed、--extra-body</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>cache-bust (a new random prefix per request)</source>
        <translation>击穿缓存（每个请求一个新的随机前缀）</translation>
    </message>
    <message>
        <source>as-is</source>
        <translation>保持原样</translation>
    </message>
    <message>
        <source>SUT</source>
        <translation>被测系统</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Cost source</source>
        <translation>成本来源</translation>
    </message>
    <message>
        <source>Price per hour</source>
        <translation>每小时价格</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>资源数</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Overlapping bills</source>
        <translation>部分重叠的账单</translation>
    </message>
    <message>
        <source>Load profile</source>
        <translation>负载配置</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Rank by</source>
        <translation>排名依据</translation>
    </message>
    <message>
        <source>Load (run flags)</source>
        <translation>负载（运行参数）</translation>
    </message>
    <message>
        <source>imported bills</source>
        <translation>导入的账单</translation>
    </message>
    <message>
        <source>price per hour</source>
        <translation>每小时价格</translation>
    </message>
    <message>
        <source>prorate by time</source>
        <translation>按时间比例分摊</translation>
    </message>
    <message>
        <source>count whole</source>
        <translation>整笔计入</translation>
    </message>
    <message>
        <source>the first candidate</source>
        <translation>第一个候选</translation>
    </message>
    <message>
        <source>Save study</source>
        <translation>保存研究</translation>
    </message>
    <message>
        <source>Store the definition in the project; run it with Run study</source>
        <translation>把定义保存到项目中；用“运行研究”运行它</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>built-in simulator (TTFT %1, ITL %2)</source>
        <translation>内置模拟器（TTFT %1，ITL %2）</translation>
    </message>
    <message>
        <source>(as defined in the study)</source>
        <translation>（按研究中的定义）</translation>
    </message>
    <message>
        <source>as defined in the study: %1</source>
        <translation>按研究中的定义：%1</translation>
    </message>
    <message>
        <source>the run&apos;s default (random)</source>
        <translation>运行的默认值（随机）</translation>
    </message>
    <message>
        <source>the project already has a study named %1: edit that one, or choose another name</source>
        <translation>项目中已有名为 %1 的研究：请编辑那一个，或换一个名称</translation>
    </message>
    <message>
        <source>The study could not be saved: %1</source>
        <translation>无法保存研究：%1</translation>
    </message>
    <message>
        <source>reset (the engine&apos;s own reset before every cell, verified)</source>
        <translation>reset（每个单元前调用引擎自身的重置，并核实）</translation>
    </message>
    <message>
        <source>restart (every candidate a managed server, started afresh)</source>
        <translation>restart（每个候选方案都是托管服务器，重新启动）</translation>
    </message>
</context>
<context>
    <name>sb::StudyView</name>
    <message>
        <source>Study:</source>
        <translation>研究：</translation>
    </message>
    <message>
        <source>Run study file…</source>
        <translation>运行研究文件…</translation>
    </message>
    <message>
        <source>Run a study definition (JSON) against this project; a study already in the project resumes at its next unfinished cell</source>
        <translation>按研究定义（JSON）在本项目中运行；项目中已有的研究从下一个未完成的单元继续</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Decide again</source>
        <translation>重新决策</translation>
    </message>
    <message>
        <source>Export decision JSON…</source>
        <translation>导出决策 JSON…</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决策</translation>
    </message>
    <message>
        <source>Intervals</source>
        <translation>区间</translation>
    </message>
    <message>
        <source>Cost against merit</source>
        <translation>成本与指标</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待运行</translation>
    </message>
    <message>
        <source>%1 · repeat %2</source>
        <translation>%1 · 第 %2 次重复</translation>
    </message>
    <message>
        <source>Cell %1 in the running order</source>
        <translation>运行顺序中的第 %1 个单元</translation>
    </message>
    <message>
        <source>Run %1, attempts: %2</source>
        <translation>运行 %1，尝试次数：%2</translation>
    </message>
    <message>
        <source>No study in this project yet. Run a study file (candidates × scenarios × repeats, docs/study.md) to start one.</source>
        <translation>本项目中还没有研究。运行一个研究文件（候选 × 场景 × 重复，见 docs/study.md）即可开始。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (version %2): %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（第 %2 版）：%3</translation>
    </message>
    <message>
        <source>%1 of %2 cells done.</source>
        <translation>已完成 %1 / %2 个单元。</translation>
    </message>
    <message>
        <source>Missing: %1 (no completed cell).</source>
        <translation>缺失：%1（没有完成的单元）。</translation>
    </message>
    <message>
        <source>Cells left out of the decision:</source>
        <translation>未纳入决策的单元：</translation>
    </message>
    <message>
        <source>  #%1 %2 · %3 · repeat %4 (%5): %6</source>
        <translation>  #%1 %2 · %3 · 第 %4 次重复（%5）：%6</translation>
    </message>
    <message>
        <source>No decision yet: the chart shows the figure of merit of each candidate once a study has completed cells</source>
        <translation>尚无决策：研究有已完成的单元后，此图显示各候选的评价指标</translation>
    </message>
    <message>
        <source>%1 — %2, mean over the repeats with its 95 % interval</source>
        <translation>%1 — %2，各次重复的均值及其 95 % 区间</translation>
    </message>
    <message>
        <source>%1 — cost per 1M output tokens against %2</source>
        <translation>%1 — 每百万输出 token 成本与 %2 的关系</translation>
    </message>
    <message>
        <source>Cost / 1M output tokens</source>
        <translation>每百万输出 token 成本</translation>
    </message>
    <message>
        <source>%1 — no candidate has a cost yet (import bills or give a price per hour)</source>
        <translation>%1 — 还没有候选有成本（请导入账单或给出每小时价格）</translation>
    </message>
    <message>
        <source>Run a study</source>
        <translation>运行研究</translation>
    </message>
    <message>
        <source>Study definitions (*.json)</source>
        <translation>研究定义 (*.json)</translation>
    </message>
    <message>
        <source>A study is already running.</source>
        <translation>已有一个研究正在运行。</translation>
    </message>
    <message>
        <source>Save the project first: a study records its runs in the project file.</source>
        <translation>请先保存项目：研究会把它的运行记录到项目文件中。</translation>
    </message>
    <message>
        <source>%1 does not validate:
%2</source>
        <translation>%1 未通过校验：
%2</translation>
    </message>
    <message>
        <source>Starting study %1…</source>
        <translation>正在启动研究 %1…</translation>
    </message>
    <message>
        <source>Running cell %1 of %2: %3 · %4 · repeat %5 (run %6)</source>
        <translation>正在运行第 %1 / %2 个单元：%3 · %4 · 第 %5 次重复（运行 %6）</translation>
    </message>
    <message>
        <source>The study finished.</source>
        <translation>研究已完成。</translation>
    </message>
    <message>
        <source>The study stopped: %1</source>
        <translation>研究已停止：%1</translation>
    </message>
    <message>
        <source>Export the decision</source>
        <translation>导出决策</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>client saturated</source>
        <translation>客户端饱和</translation>
    </message>
    <message>
        <source>cache state</source>
        <translation>缓存状态</translation>
    </message>
    <message>
        <source>New study…</source>
        <translation>新建研究…</translation>
    </message>
    <message>
        <source>Define a study: candidates from the project&apos;s SUTs, scenarios from its load profiles</source>
        <translation>定义一项研究：候选取自项目的被测系统，场景取自其负载配置</translation>
    </message>
    <message>
        <source>Edit study…</source>
        <translation>编辑研究…</translation>
    </message>
    <message>
        <source>Edit the shown study; once its cells have run, saving a change starts a new version</source>
        <translation>编辑所显示的研究；其单元运行后，保存修改会开始新版本</translation>
    </message>
    <message>
        <source>Run study</source>
        <translation>运行研究</translation>
    </message>
    <message>
        <source>Run the shown study&apos;s latest version, or resume it at its next unfinished cell</source>
        <translation>运行所显示研究的最新版本，或从下一个未完成的单元继续</translation>
    </message>
    <message>
        <source>No study to run: define one with New study… or run a study file.</source>
        <translation>没有可运行的研究：请用“新建研究…”定义一项，或运行研究文件。</translation>
    </message>
    <message>
        <source>The study %1 does not validate:
%2</source>
        <translation>研究 %1 未通过校验：
%2</translation>
    </message>
    <message>
        <source>Saved %1 as version %2: the cells of version %3 had run, so the change starts fresh cells and their runs stay with version %3.</source>
        <translation>已将 %1 保存为版本 %2：版本 %3 的单元已经运行，因此修改使用新的单元，原有运行仍归属于版本 %3。</translation>
    </message>
    <message>
        <source>%1 is unchanged (version %2).</source>
        <translation>%1 未改变（版本 %2）。</translation>
    </message>
    <message>
        <source>Saved %1 (version %2). Run study runs its cells.</source>
        <translation>已保存 %1（版本 %2）。“运行研究”会运行其单元。</translation>
    </message>
</context>
<context>
    <name>sb::SummaryTableModel</name>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Population standard deviation (ddof = 0, as numpy and vLLM)</source>
        <translation>总体标准差（ddof = 0，与 numpy 和 vLLM 一致）</translation>
    </message>
    <message>
        <source>Samples behind the statistics: requests, or token gaps for ITL</source>
        <translation>统计所依据的样本：请求数，ITL 则为 token 间隔数</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <source>omitted: %1</source>
        <translation>已省略：%1</translation>
    </message>
    <message>
        <source>%1 interval %2 (%3, n = %4)</source>
        <translation>%1 区间 %2（%3，n = %4）</translation>
    </message>
    <message>
        <source>%1 interval %2</source>
        <translation>%1 区间 %2</translation>
    </message>
    <message>
        <source>Student&apos;s t</source>
        <translation>学生 t 分布</translation>
    </message>
    <message>
        <source>order statistics</source>
        <translation>顺序统计量</translation>
    </message>
    <message>
        <source>bootstrap percentile</source>
        <translation>自助法百分位</translation>
    </message>
    <message>
        <source>bootstrap percentile, resampling clusters</source>
        <translation>自助法百分位（按簇重采样）</translation>
    </message>
</context>
<context>
    <name>sb::SutEditor</name>
    <message>
        <source>Line %1: write a header as &quot;Name: value&quot;.</source>
        <translation>第 %1 行：请按“名称: 值”的格式书写请求头。</translation>
    </message>
    <message>
        <source>System under test</source>
        <translation>被测系统</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>Built-in simulator:</source>
        <translation>内置模拟器：</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <source>API flavour:</source>
        <translation>API 类型：</translation>
    </message>
    <message>
        <source>Endpoint path:</source>
        <translation>端点路径：</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>Weights revision:</source>
        <translation>权重版本：</translation>
    </message>
    <message>
        <source>Serving engine:</source>
        <translation>推理引擎：</translation>
    </message>
    <message>
        <source>Engine version:</source>
        <translation>引擎版本：</translation>
    </message>
    <message>
        <source>GPU model:</source>
        <translation>GPU 型号：</translation>
    </message>
    <message>
        <source>GPU count:</source>
        <translation>GPU 数量：</translation>
    </message>
    <message>
        <source>Container image:</source>
        <translation>容器镜像：</translation>
    </message>
    <message>
        <source>Replicas:</source>
        <translation>副本数：</translation>
    </message>
    <message>
        <source>Containers:</source>
        <translation>容器数：</translation>
    </message>
    <message>
        <source>Workers per container:</source>
        <translation>每容器工作进程数：</translation>
    </message>
    <message>
        <source>Region:</source>
        <translation>区域：</translation>
    </message>
    <message>
        <source>Client location:</source>
        <translation>客户端位置：</translation>
    </message>
    <message>
        <source>Extra headers:</source>
        <translation>额外请求头：</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>API key source:</source>
        <translation>API 密钥来源：</translation>
    </message>
    <message>
        <source>Variable / account:</source>
        <translation>变量名 / 账户：</translation>
    </message>
    <message>
        <source>API key:</source>
        <translation>API 密钥：</translation>
    </message>
    <message>
        <source>Start ServeBench&apos;s own simulator for runs (no server needed)</source>
        <translation>运行时启动 ServeBench 自带的模拟器（无需服务器）</translation>
    </message>
    <message>
        <source>OpenAI completions (/v1/completions)</source>
        <translation>OpenAI completions（/v1/completions）</translation>
    </message>
    <message>
        <source>OpenAI chat (/v1/chat/completions)</source>
        <translation>OpenAI 对话（/v1/chat/completions）</translation>
    </message>
    <message>
        <source>empty: the flavour&apos;s default path</source>
        <translation>留空：使用该 API 类型的默认路径</translation>
    </message>
    <message>
        <source>model id as the server lists it in /v1/models</source>
        <translation>服务器在 /v1/models 中列出的模型 ID</translation>
    </message>
    <message>
        <source>e.g. a Hugging Face commit hash</source>
        <translation>例如 Hugging Face 的提交哈希</translation>
    </message>
    <message>
        <source>One &quot;Name: value&quot; per line</source>
        <translation>每行一个“名称: 值”</translation>
    </message>
    <message>
        <source>Anything a reader of the report should know</source>
        <translation>报告读者需要了解的任何信息</translation>
    </message>
    <message>
        <source>OPENAI_API_KEY environment variable</source>
        <translation>OPENAI_API_KEY 环境变量</translation>
    </message>
    <message>
        <source>Another environment variable</source>
        <translation>其他环境变量</translation>
    </message>
    <message>
        <source>System keychain</source>
        <translation>系统密钥链</translation>
    </message>
    <message>
        <source>paste the key here, then save it to the keychain</source>
        <translation>在此粘贴密钥，然后保存到密钥链</translation>
    </message>
    <message>
        <source>Save to keychain</source>
        <translation>保存到密钥链</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>Lists /v1/models, sends one streamed request and tells whether the endpoint really streams or buffers the whole answer</source>
        <translation>列出 /v1/models，发送一个流式请求，并判断该端点是真正流式输出还是缓冲整个回答</translation>
    </message>
    <message>
        <source>scheme://host:port of the OpenAI-compatible server; a trailing /v1 is accepted</source>
        <translation>OpenAI 兼容服务器的 scheme://host:port；末尾带 /v1 也可以</translation>
    </message>
    <message>
        <source>The key is never written into the project file: only where to find it</source>
        <translation>密钥从不写入项目文件：只记录在哪里可以找到它</translation>
    </message>
    <message>
        <source>Sent with every request. Credentials belong in the API key field.</source>
        <translation>随每个请求发送。凭据应填在 API 密钥字段中。</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Give the SUT a name: runs are grouped and compared by it.</source>
        <translation>请为被测系统命名：运行按它分组和比较。</translation>
    </message>
    <message>
        <source>Enter the server&apos;s base URL, e.g. http://gpu-host:8000.</source>
        <translation>请输入服务器的基础 URL，例如 http://gpu-host:8000。</translation>
    </message>
    <message>
        <source>Not an http:// or https:// URL with a host.</source>
        <translation>不是带主机名的 http:// 或 https:// URL。</translation>
    </message>
    <message>
        <source>The base URL takes no query or fragment.</source>
        <translation>基础 URL 不能包含查询参数或片段。</translation>
    </message>
    <message>
        <source>Enter the model id the server serves (Test connection lists them).</source>
        <translation>请输入服务器提供的模型 ID（“测试连接”会列出它们）。</translation>
    </message>
    <message>
        <source>The path starts with / (for example /v1/completions).</source>
        <translation>路径须以 / 开头（例如 /v1/completions）。</translation>
    </message>
    <message>
        <source>The path contains a space.</source>
        <translation>路径中包含空格。</translation>
    </message>
    <message>
        <source>An environment variable name: letters, digits and _, not starting with a digit.</source>
        <translation>环境变量名只能包含字母、数字和 _，且不能以数字开头。</translation>
    </message>
    <message>
        <source>Name the keychain entry (for example the SUT&apos;s name).</source>
        <translation>请为密钥链条目命名（例如被测系统的名称）。</translation>
    </message>
    <message>
        <source>Saving the key …</source>
        <translation>正在保存密钥…</translation>
    </message>
    <message>
        <source>The built-in simulator starts with a run; nothing to test.</source>
        <translation>内置模拟器随运行启动；无需测试。</translation>
    </message>
    <message>
        <source>Testing …</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <source>Connection test passed: the endpoint streams.</source>
        <translation>连接测试通过：该端点为流式输出。</translation>
    </message>
    <message>
        <source>Connection test: the endpoint buffers its answers.</source>
        <translation>连接测试：该端点会缓冲回答。</translation>
    </message>
    <message>
        <source>Connection test failed.</source>
        <translation>连接测试失败。</translation>
    </message>
    <message>
        <source>Choose a CA certificate file</source>
        <translation>选择 CA 证书文件</translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>证书 (*.pem *.crt *.cer);;所有文件 (*)</translation>
    </message>
    <message>
        <source>CA certificates:</source>
        <translation>CA 证书：</translation>
    </message>
    <message>
        <source>HTTP proxy:</source>
        <translation>HTTP 代理：</translation>
    </message>
    <message>
        <source>empty: the system&apos;s certificate authorities only</source>
        <translation>留空：仅使用系统的证书颁发机构</translation>
    </message>
    <message>
        <source>A PEM file of CA certificates trusted for this https endpoint besides the system&apos;s, for servers with a private CA</source>
        <translation>除系统 CA 外，对此 https 端点额外信任的 CA 证书 PEM 文件，用于使用私有 CA 的服务器</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>empty: from the environment (http_proxy, https_proxy, no_proxy); none: direct</source>
        <translation>留空：取自环境变量（http_proxy、https_proxy、no_proxy）；none：直连</translation>
    </message>
    <message>
        <source>An http:// proxy URL, or none. A proxy password is never stored: put it in the environment&apos;s https_proxy instead.</source>
        <translation>http:// 代理 URL，或 none。代理密码从不存储：请将其放在环境变量 https_proxy 中。</translation>
    </message>
    <message>
        <source>An http:// proxy URL (host:port is read as http://host:port), or none.</source>
        <translation>http:// 代理 URL（host:port 按 http://host:port 解读），或 none。</translation>
    </message>
    <message>
        <source>No password here: it would be stored in the project. Put the proxy URL with its password in the https_proxy environment variable and leave this empty.</source>
        <translation>此处不可填写密码：它会被存入项目文件。请将带密码的代理 URL 放在环境变量 https_proxy 中，并将此处留空。</translation>
    </message>
    <message>
        <source>Line %1: %2 carries a credential. Headers are stored in the project; put the key in the API key field and write {api_key} here where it goes (e.g. &quot;%2: {api_key}&quot;).</source>
        <translation>第 %1 行：%2 含有凭据。请求头会存入项目文件；请把密钥填入“API 密钥”字段，并在此处需要密钥的位置写 {api_key}（例如“%2: {api_key}”）。</translation>
    </message>
    <message>
        <source>Choose the model&apos;s tokenizer</source>
        <translation>选择模型的分词器</translation>
    </message>
    <message>
        <source>Tokenizers (tokenizer.json *.tiktoken);;All files (*)</source>
        <translation>分词器 (tokenizer.json *.tiktoken);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Tokenizer:</source>
        <translation>分词器：</translation>
    </message>
    <message>
        <source>empty: token counts from the server&apos;s usage (synthetic prompts approximate)</source>
        <translation>留空：token 数取自服务器的 usage（合成提示为近似长度）</translation>
    </message>
    <message>
        <source>The model&apos;s tokenizer.json, a folder holding one, or a *.tiktoken file (run --tokenizer). With it synthetic prompts hold exactly their token lengths, dataset lengths are real token counts, and output tokens are counted from the streamed text when the server sends no usage.</source>
        <translation>模型的 tokenizer.json、包含它的文件夹，或 *.tiktoken 文件（run --tokenizer）。有了它，合成提示的 token 长度完全准确，数据集长度是真实的 token 数，并且在服务器不发送 usage 时根据流式返回的文本统计输出 token。</translation>
    </message>
    <message>
        <source>No such file or folder.</source>
        <translation>文件或文件夹不存在。</translation>
    </message>
    <message>
        <source>Server metrics:</source>
        <translation>服务器指标：</translation>
    </message>
    <message>
        <source>More metrics targets:</source>
        <translation>更多指标目标：</translation>
    </message>
    <message>
        <source>Target token:</source>
        <translation>目标令牌：</translation>
    </message>
    <message>
        <source>Automatic: the base URL&apos;s /metrics</source>
        <translation>自动：基础 URL 的 /metrics</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>This URL:</source>
        <translation>此 URL：</translation>
    </message>
    <message>
        <source>Prometheus metrics scraped beside every run: the engine&apos;s queue, KV cache and counters. Automatic keeps the base URL&apos;s /metrics when it answers and turns it off with a note when it does not; a URL of its own is scraped whatever it answers.</source>
        <translation>每次运行时一并采集的 Prometheus 指标：引擎队列、KV 缓存和计数器。自动模式在基础 URL 的 /metrics 有应答时保留它，无应答时关闭并给出提示；单独指定的 URL 无论应答如何都会采集。</translation>
    </message>
    <message>
        <source>Further Prometheus targets (a DCGM or node exporter), one per line: name=URL, optionally followed by ,token-env=VARIABLE or ,token-keychain=ENTRY. The token itself is never written into the project: only where to find it.</source>
        <translation>其他 Prometheus 目标（DCGM 或 node 导出器），每行一个：名称=URL，可在后面加上 ,token-env=变量名 或 ,token-keychain=条目名。令牌本身从不写入项目：只记录在哪里可以找到它。</translation>
    </message>
    <message>
        <source>keychain entry</source>
        <translation>密钥链条目</translation>
    </message>
    <message>
        <source>paste a target&apos;s token, then save it to the keychain</source>
        <translation>在此粘贴目标的令牌，然后保存到密钥链</translation>
    </message>
    <message>
        <source>Line %1: write name=URL, optionally followed by ,token-env=VARIABLE or ,token-keychain=ENTRY.</source>
        <translation>第 %1 行：请写成 名称=URL，可在后面加上 ,token-env=变量名 或 ,token-keychain=条目名。</translation>
    </message>
    <message>
        <source>Enter the URL to scrape, e.g. http://gpu-host:8000/metrics.</source>
        <translation>请输入要采集的 URL，例如 http://gpu-host:8000/metrics。</translation>
    </message>
    <message>
        <source>Saving the token of %1 …</source>
        <translation>正在保存 %1 的令牌…</translation>
    </message>
    <message>
        <source>The keychain reported: %1</source>
        <translation>钥匙串报告：%1</translation>
    </message>
    <message>
        <source>the simulator&apos;s /metrics</source>
        <translation>模拟器的 /metrics</translation>
    </message>
    <message>
        <source>Server start command:</source>
        <translation>服务器启动命令：</translation>
    </message>
    <message>
        <source>Server stop command:</source>
        <translation>服务器停止命令：</translation>
    </message>
    <message>
        <source>Server health URL:</source>
        <translation>服务器健康检查 URL：</translation>
    </message>
    <message>
        <source>Server start timeout:</source>
        <translation>服务器启动超时：</translation>
    </message>
    <message>
        <source>Server restarted:</source>
        <translation>服务器重启时机：</translation>
    </message>
    <message>
        <source>OpenAI Responses (/v1/responses)</source>
        <translation>OpenAI Responses（/v1/responses）</translation>
    </message>
    <message>
        <source>Anthropic Messages (/v1/messages)</source>
        <translation>Anthropic Messages（/v1/messages）</translation>
    </message>
    <message>
        <source>Embeddings, not streamed (/v1/embeddings)</source>
        <translation>嵌入，非流式（/v1/embeddings）</translation>
    </message>
    <message>
        <source>Rerank, not streamed (/v1/rerank or /rerank)</source>
        <translation>重排序，非流式（/v1/rerank 或 /rerank）</translation>
    </message>
    <message>
        <source>empty: the server runs already; e.g. vllm serve MODEL --port 8000</source>
        <translation>留空：服务器已在运行；例如 vllm serve MODEL --port 8000</translation>
    </message>
    <message>
        <source>ServeBench starts this shell command before a run, waits until the health URL answers, runs, and stops it; its output is stored in the project. Write secrets as $VARIABLE: the command is stored as written.</source>
        <translation>ServeBench 在运行前用 /bin/sh 执行此命令，等待健康检查 URL 应答后开始运行，结束后停止它；其输出保存在项目中。密钥请写成 $VARIABLE：命令按原样保存。</translation>
    </message>
    <message>
        <source>empty: SIGTERM to its process group, SIGKILL after 10 s</source>
        <translation>留空：向其进程组发送 SIGTERM，10 秒后发送 SIGKILL</translation>
    </message>
    <message>
        <source>empty: the base URL&apos;s /health</source>
        <translation>留空：基础 URL 的 /health</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>once per run command or study cell</source>
        <translation>每个运行命令或研究单元启动一次</translation>
    </message>
    <message>
        <source>before every run of a sweep or series</source>
        <translation>扫描或系列中的每次运行前都重启</translation>
    </message>
    <message>
        <source>The built-in simulator is started by ServeBench itself: a managed server needs its base URL.</source>
        <translation>内置模拟器由 ServeBench 自行启动：托管服务器需要填写其基础 URL。</translation>
    </message>
    <message>
        <source>%1 is written out: the command is stored in the project. Write it as $VARIABLE and set it in the environment.</source>
        <translation>%1 以明文写出：命令会保存在项目中。请写成 $VARIABLE 并在环境中设置。</translation>
    </message>
</context>
<context>
    <name>sb::TurnTableModel</name>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>The server reported no cached tokens for this turn.</source>
        <translation>服务器未报告此轮的缓存词元。</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>OK / sent</source>
        <translation>成功 / 已发送</translation>
    </message>
    <message>
        <source>Mean TTFT (ms)</source>
        <translation>平均 TTFT（ms）</translation>
    </message>
    <message>
        <source>P99 TTFT (ms)</source>
        <translation>P99 TTFT（ms）</translation>
    </message>
    <message>
        <source>Mean ITL (ms)</source>
        <translation>平均 ITL（ms）</translation>
    </message>
    <message>
        <source>Mean E2EL (ms)</source>
        <translation>平均 E2EL（ms）</translation>
    </message>
    <message>
        <source>Input tokens</source>
        <translation>输入词元</translation>
    </message>
    <message>
        <source>New tokens</source>
        <translation>新增词元</translation>
    </message>
    <message>
        <source>History tokens</source>
        <translation>历史词元</translation>
    </message>
    <message>
        <source>Cache hit rate</source>
        <translation>缓存命中率</translation>
    </message>
    <message>
        <source>Think, configured (ms)</source>
        <translation>思考时间，配置（ms）</translation>
    </message>
    <message>
        <source>Think, measured (ms)</source>
        <translation>思考时间，实测（ms）</translation>
    </message>
    <message>
        <source>Successful requests of this turn / requests of this turn</source>
        <translation>此轮成功的请求数 / 此轮的请求数</translation>
    </message>
    <message>
        <source>Mean input tokens of the successful requests of this turn (the server&apos;s usage, else the client&apos;s count)</source>
        <translation>此轮成功请求的平均输入词元数（服务器的 usage，否则为客户端的计数）</translation>
    </message>
</context>
</TS>

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>sb::Message</name>
    <message>
        <source>is required</source>
        <comment>plan.url.missing</comment>
        <translation>为必填项</translation>
    </message>
    <message>
        <source>must be an http:// or https:// URL, got &apos;%1&apos;</source>
        <comment>plan.url.invalid</comment>
        <translation>必须是 http:// 或 https:// URL，实际为“%1”</translation>
    </message>
    <message>
        <source>must not hold a user name or password (it would be stored with the run and shown in reports): give an API key through the keychain or the OPENAI_API_KEY environment variable instead</source>
        <comment>plan.url.credentials</comment>
        <translation>不得包含用户名或密码（它会随运行保存并显示在报告中）：请改用密钥环或 OPENAI_API_KEY 环境变量提供 API 密钥</translation>
    </message>
    <message>
        <source>must not contain spaces or control characters</source>
        <comment>plan.url.control</comment>
        <translation>不得包含空格或控制字符</translation>
    </message>
    <message>
        <source>must be a path without spaces or control characters</source>
        <comment>plan.endpoint.control</comment>
        <translation>必须是不含空格或控制字符的路径</translation>
    </message>
    <message>
        <source>needs a header name before the value</source>
        <comment>plan.header.empty_name</comment>
        <translation>值之前需要请求头名称</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid header name (letters, digits and !#$%&amp;&apos;*+-.^_`|~ only)</source>
        <comment>plan.header.bad_name</comment>
        <translation>“%1”不是有效的请求头名称（只能包含字母、数字和 !#$%&amp;&apos;*+-.^_`|~）</translation>
    </message>
    <message>
        <source>the value of &apos;%1&apos; holds a carriage return, line feed or NUL character, which would start a header of its own</source>
        <comment>plan.header.bad_value</comment>
        <translation>“%1”的值包含回车、换行或 NUL 字符，这会另起一个请求头</translation>
    </message>
    <message>
        <source>must not hold a password (it would be stored with the run and shown in reports); put the proxy URL with its credentials in the https_proxy / http_proxy environment variable instead</source>
        <comment>plan.proxy.password</comment>
        <translation>不得包含密码（它会随运行保存并显示在报告中）；请把带凭据的代理 URL 放在 https_proxy / http_proxy 环境变量中</translation>
    </message>
    <message>
        <source>must be between 1 and %1</source>
        <comment>plan.num_prompts.range</comment>
        <translation>必须在 1 到 %1 之间</translation>
    </message>
    <message>
        <source>must be between 0 and %1 seconds</source>
        <comment>plan.duration.range</comment>
        <translation>必须在 0 到 %1 秒之间</translation>
    </message>
    <message>
        <source>must not be negative</source>
        <comment>plan.not_negative</comment>
        <translation>不得为负数</translation>
    </message>
    <message>
        <source>must be shorter than the run&apos;s duration</source>
        <comment>plan.warmup_seconds.whole_run</comment>
        <translation>必须短于运行时长</translation>
    </message>
    <message>
        <source>needs a finite request rate or a closed loop (with an unlimited rate every request is sent at t = 0)</source>
        <comment>plan.warmup_seconds.unlimited_rate</comment>
        <translation>需要有限的请求速率或闭环（速率不限时，所有请求都在 t = 0 发出）</translation>
    </message>
    <message>
        <source>must be more than 0 and at most %1 seconds</source>
        <comment>plan.timeout.range</comment>
        <translation>必须大于 0 且不超过 %1 秒</translation>
    </message>
    <message>
        <source>must be a finite rate</source>
        <comment>plan.rate.finite</comment>
        <translation>必须是有限的速率</translation>
    </message>
    <message>
        <source>must be between %1 and %2 requests per second</source>
        <comment>plan.rate.range</comment>
        <translation>必须在每秒 %1 到 %2 个请求之间</translation>
    </message>
    <message>
        <source>must be between %1 and %2 requests per second, or inf (unlimited)</source>
        <comment>plan.rate.range_or_inf</comment>
        <translation>必须在每秒 %1 到 %2 个请求之间，或为 inf（不限）</translation>
    </message>
    <message>
        <source>%1 requests at %2 per second would take longer than %3 days; raise the rate or send fewer requests</source>
        <comment>plan.rate.span</comment>
        <translation>以每秒 %2 个的速率发送 %1 个请求将超过 %3 天；请提高速率或减少请求数</translation>
    </message>
    <message>
        <source>must be between %1 and %2</source>
        <comment>plan.burstiness.range</comment>
        <translation>必须在 %1 到 %2 之间</translation>
    </message>
    <message>
        <source>must be at least the start rate: a ramp-up climbs</source>
        <comment>plan.ramp.down</comment>
        <translation>必须不小于起始速率：爬升只能向上</translation>
    </message>
    <message>
        <source>must be between 1 and %1</source>
        <comment>plan.concurrency.range</comment>
        <translation>必须在 1 到 %1 之间</translation>
    </message>
    <message>
        <source>and a concurrency cap exclude each other: choose a closed loop (keep C in flight) or a cap on an open loop, not both</source>
        <comment>plan.concurrency.both</comment>
        <translation>与并发上限互斥：请选择闭环（保持 C 个请求在途）或在开环上设并发上限，二者不能同时使用</translation>
    </message>
    <message>
        <source>must be between 0 and %1</source>
        <comment>plan.trace_time_scale.range</comment>
        <translation>必须在 0 到 %1 之间</translation>
    </message>
    <message>
        <source>replays its own arrival times: a ramp-up cannot apply</source>
        <comment>plan.trace.with_ramp</comment>
        <translation>按轨迹自身的到达时间回放：不能使用爬升</translation>
    </message>
    <message>
        <source>with an unlimited rate needs a concurrency cap or a closed loop</source>
        <comment>plan.duration.unlimited_rate</comment>
        <translation>在速率不限时需要并发上限或闭环</translation>
    </message>
    <message>
        <source>must be finite for the Server scenario</source>
        <comment>plan.server.finite_rate</comment>
        <translation>在 Server 场景下必须为有限值</translation>
    </message>
    <message>
        <source>must be poisson: the MLPerf Server scenario uses Poisson arrivals</source>
        <comment>plan.server.poisson</comment>
        <translation>必须为 poisson：MLPerf Server 场景使用泊松到达</translation>
    </message>
    <message>
        <source>does not apply to the Server scenario, whose arrivals are an open Poisson process</source>
        <comment>plan.server.closed_loop</comment>
        <translation>不适用于 Server 场景，其到达是开环泊松过程</translation>
    </message>
    <message>
        <source>must be unlimited (inf): the Offline scenario issues every request at once</source>
        <comment>plan.offline.rate</comment>
        <translation>必须不限（inf）：Offline 场景一次发出所有请求</translation>
    </message>
    <message>
        <source>must be 1 or unset: SingleStream sends one query at a time</source>
        <comment>plan.single_stream.concurrency</comment>
        <translation>必须为 1 或不设置：SingleStream 每次只发送一个查询</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a known MLPerf preset</source>
        <comment>plan.mlperf.preset</comment>
        <translation>“%1”不是已知的 MLPerf 预设</translation>
    </message>
    <message>
        <source>must be above 0 and below 100</source>
        <comment>plan.slo_percentile.range</comment>
        <translation>必须大于 0 且小于 100</translation>
    </message>
    <message>
        <source>must be numbers from 0 to 100, got %1</source>
        <comment>plan.percentile.range</comment>
        <translation>必须是 0 到 100 之间的数，实际为 %1</translation>
    </message>
    <message>
        <source>knows ttft, tpot, itl and e2el, got &apos;%1&apos;</source>
        <comment>plan.percentile_metrics.unknown</comment>
        <translation>只支持 ttft、tpot、itl 和 e2el，实际为“%1”</translation>
    </message>
    <message>
        <source>must be a finite number of milliseconds</source>
        <comment>plan.goodput.range</comment>
        <translation>必须是有限的ms数</translation>
    </message>
    <message>
        <source>is required for a %1 dataset</source>
        <comment>plan.dataset.path_missing</comment>
        <translation>对于 %1 数据集为必填项</translation>
    </message>
    <message>
        <source>must be between 1 and %1 tokens</source>
        <comment>plan.tokens.range</comment>
        <translation>必须在 1 到 %1 个 token 之间</translation>
    </message>
    <message>
        <source>must be at least 0 and below 1</source>
        <comment>plan.range_ratio.range</comment>
        <translation>必须不小于 0 且小于 1</translation>
    </message>
    <message>
        <source>must be between 0 and 100</source>
        <comment>plan.temperature.range</comment>
        <translation>必须在 0 到 100 之间</translation>
    </message>
    <message>
        <source>must be between 0 and %1 rates</source>
        <comment>plan.sweep.range</comment>
        <translation>必须在 0 到 %1 个速率之间</translation>
    </message>
    <message>
        <source>must be above 0 and below 1</source>
        <comment>plan.rate_tolerance.range</comment>
        <translation>必须大于 0 且小于 1</translation>
    </message>
    <message>
        <source>searches Server rates: the scenario must be server</source>
        <comment>plan.search.server</comment>
        <translation>搜索的是 Server 速率：场景必须为 server</translation>
    </message>
    <message>
        <source>needs latency bounds: a TTFT or TPOT bound or an MLPerf preset</source>
        <comment>plan.search.bounds</comment>
        <translation>需要延迟上限：TTFT 或 TPOT 上限，或一个 MLPerf 预设</translation>
    </message>
    <message>
        <source>runs one plan: sweeps and rate searches are not sharded</source>
        <comment>plan.shard.single</comment>
        <translation>只运行一个计划：扫描和速率搜索不分片</translation>
    </message>
    <message>
        <source>needs an endpoint all agents share (a base URL): each agent would otherwise benchmark its own built-in simulator</source>
        <comment>plan.shard.simulator</comment>
        <translation>需要所有代理共享的端点（基础 URL）：否则每个代理都会测试它自己的内置模拟器</translation>
    </message>
    <message>
        <source>%1</source>
        <comment>prepare.detail</comment>
        <translation>%1</translation>
    </message>
    <message>
        <source>could not start the built-in simulator: %1</source>
        <comment>prepare.simulator.start</comment>
        <translation>无法启动内置模拟器：%1</translation>
    </message>
    <message>
        <source>cannot reach %1: %2</source>
        <comment>prepare.unreachable</comment>
        <translation>无法连接 %1：%2</translation>
    </message>
    <message>
        <source>cannot reach %1 through proxy %2: %3</source>
        <comment>prepare.unreachable.proxy</comment>
        <translation>无法通过代理 %2 连接 %1：%3</translation>
    </message>
    <message>
        <source>is required: %1</source>
        <comment>prepare.model.none</comment>
        <translation>为必填项：%1</translation>
    </message>
    <message>
        <source>%1 has no rows</source>
        <comment>prepare.trace.empty</comment>
        <translation>%1 没有数据行</translation>
    </message>
    <message>
        <source>spans %1 days after scaling; at most %2 days can be replayed</source>
        <comment>prepare.trace.span</comment>
        <translation>缩放后跨度为 %1 天；最多只能回放 %2 天</translation>
    </message>
    <message>
        <source>cancelled before the run started</source>
        <comment>prepare.cancelled</comment>
        <translation>运行开始前已取消</translation>
    </message>
    <message>
        <source>must be between 2 and %1 (the interval needs two pairs)</source>
        <comment>audit.num_prompts</comment>
        <translation>必须在 2 到 %1 之间（区间需要两对请求）</translation>
    </message>
    <message>
        <source>must be between 2 and %1 tokens (a prefix and a body)</source>
        <comment>audit.input_len</comment>
        <translation>必须在 2 到 %1 个 token 之间（一个前缀加一个正文）</translation>
    </message>
    <message>
        <source>model</source>
        <comment>cmp.field.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>dataset (content hash)</source>
        <comment>cmp.field.dataset_hash</comment>
        <translation>数据集（内容哈希）</translation>
    </message>
    <message>
        <source>request count / duration</source>
        <comment>cmp.field.requests</comment>
        <translation>请求数 / 时长</translation>
    </message>
    <message>
        <source>scenario</source>
        <comment>cmp.field.scenario</comment>
        <translation>场景</translation>
    </message>
    <message>
        <source>arrival process</source>
        <comment>cmp.field.arrival</comment>
        <translation>到达过程</translation>
    </message>
    <message>
        <source>request rate</source>
        <comment>cmp.field.request_rate</comment>
        <translation>请求速率</translation>
    </message>
    <message>
        <source>concurrency</source>
        <comment>cmp.field.concurrency</comment>
        <translation>并发</translation>
    </message>
    <message>
        <source>max tokens (output length)</source>
        <comment>cmp.field.max_tokens</comment>
        <translation>最大 token 数（输出长度）</translation>
    </message>
    <message>
        <source>output-length policy (ignore_eos)</source>
        <comment>cmp.field.ignore_eos</comment>
        <translation>输出长度策略（ignore_eos）</translation>
    </message>
    <message>
        <source>temperature</source>
        <comment>cmp.field.temperature</comment>
        <translation>温度</translation>
    </message>
    <message>
        <source>sampling seed</source>
        <comment>cmp.field.request_seed</comment>
        <translation>采样种子</translation>
    </message>
    <message>
        <source>extra body</source>
        <comment>cmp.field.extra_body</comment>
        <translation>附加请求体</translation>
    </message>
    <message>
        <source>SLOs</source>
        <comment>cmp.field.slo</comment>
        <translation>SLO</translation>
    </message>
    <message>
        <source>cache policy</source>
        <comment>cmp.field.cache_policy</comment>
        <translation>缓存策略</translation>
    </message>
    <message>
        <source>warm-up</source>
        <comment>cmp.field.warmup</comment>
        <translation>预热</translation>
    </message>
    <message>
        <source>request timeout</source>
        <comment>cmp.field.timeout</comment>
        <translation>请求超时</translation>
    </message>
    <message>
        <source>SUT</source>
        <comment>cmp.field.sut_name</comment>
        <translation>被测系统（SUT）</translation>
    </message>
    <message>
        <source>endpoint</source>
        <comment>cmp.field.endpoint</comment>
        <translation>端点</translation>
    </message>
    <message>
        <source>API flavour</source>
        <comment>cmp.field.api_flavour</comment>
        <translation>API 类型</translation>
    </message>
    <message>
        <source>weights revision</source>
        <comment>cmp.field.weights_revision</comment>
        <translation>权重版本</translation>
    </message>
    <message>
        <source>engine</source>
        <comment>cmp.field.engine</comment>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>engine version</source>
        <comment>cmp.field.engine_version</comment>
        <translation>引擎版本</translation>
    </message>
    <message>
        <source>GPUs</source>
        <comment>cmp.field.gpu</comment>
        <translation>GPU</translation>
    </message>
    <message>
        <source>container image</source>
        <comment>cmp.field.image</comment>
        <translation>容器镜像</translation>
    </message>
    <message>
        <source>replicas / containers / workers</source>
        <comment>cmp.field.topology</comment>
        <translation>副本 / 容器 / 工作进程</translation>
    </message>
    <message>
        <source>region</source>
        <comment>cmp.field.region</comment>
        <translation>区域</translation>
    </message>
    <message>
        <source>client location</source>
        <comment>cmp.field.client_location</comment>
        <translation>客户端位置</translation>
    </message>
    <message>
        <source>SUT notes</source>
        <comment>cmp.field.sut_notes</comment>
        <translation>SUT 备注</translation>
    </message>
    <message>
        <source>tool version</source>
        <comment>cmp.field.tool_version</comment>
        <translation>工具版本</translation>
    </message>
    <message>
        <source>source of the numbers</source>
        <comment>cmp.field.source</comment>
        <translation>数据来源</translation>
    </message>
    <message>
        <source>unknown</source>
        <comment>cmp.value.unknown</comment>
        <translation>未知</translation>
    </message>
    <message>
        <source>sha256 %1…</source>
        <comment>cmp.value.hash</comment>
        <translation>sha256 %1…</translation>
    </message>
    <message>
        <source>sha256 %1… (version %2)</source>
        <comment>cmp.value.hash_version</comment>
        <translation>sha256 %1…（版本 %2）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <comment>cmp.value.seconds</comment>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 requests</source>
        <comment>cmp.value.requests</comment>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source>trace replay ×%1</source>
        <comment>cmp.value.trace_replay</comment>
        <translation>轨迹回放 ×%1</translation>
    </message>
    <message>
        <source>closed loop</source>
        <comment>cmp.value.closed_loop</comment>
        <translation>闭环</translation>
    </message>
    <message>
        <source>all at t=0</source>
        <comment>cmp.value.all_at_t0</comment>
        <translation>全部在 t=0 发出</translation>
    </message>
    <message>
        <source>%1 (burstiness %2)</source>
        <comment>cmp.value.burstiness</comment>
        <translation>%1（突发度 %2）</translation>
    </message>
    <message>
        <source>%1 ramp-up %2 → %3 req/s</source>
        <comment>cmp.value.ramp_up</comment>
        <translation>%1 爬升 %2 → %3 req/s</translation>
    </message>
    <message>
        <source>%1 req/s</source>
        <comment>cmp.value.rate</comment>
        <translation>%1 req/s</translation>
    </message>
    <message>
        <source>inf (all at t=0)</source>
        <comment>cmp.value.rate_inf</comment>
        <translation>inf（全部在 t=0 发出）</translation>
    </message>
    <message>
        <source>closed loop, %1 in flight</source>
        <comment>cmp.value.closed_loop_in_flight</comment>
        <translation>闭环，%1 个在途</translation>
    </message>
    <message>
        <source>max %1</source>
        <comment>cmp.value.max</comment>
        <translation>最多 %1</translation>
    </message>
    <message>
        <source>unlimited</source>
        <comment>cmp.value.unlimited</comment>
        <translation>不限</translation>
    </message>
    <message>
        <source>%1 ± %2 %</source>
        <comment>cmp.value.tokens_range</comment>
        <translation>%1 ± %2 %</translation>
    </message>
    <message>
        <source>reference answer length</source>
        <comment>cmp.value.reference_length</comment>
        <translation>参考答案长度</translation>
    </message>
    <message>
        <source>per item (output_tokens)</source>
        <comment>cmp.value.per_item</comment>
        <translation>逐条（output_tokens）</translation>
    </message>
    <message>
        <source>ignore_eos: run to max tokens</source>
        <comment>cmp.value.ignore_eos</comment>
        <translation>ignore_eos：生成到最大 token 数</translation>
    </message>
    <message>
        <source>stop at EOS</source>
        <comment>cmp.value.stop_at_eos</comment>
        <translation>遇 EOS 停止</translation>
    </message>
    <message>
        <source>server default</source>
        <comment>cmp.value.server_default</comment>
        <translation>服务器默认值</translation>
    </message>
    <message>
        <source>not sent</source>
        <comment>cmp.value.not_sent</comment>
        <translation>未发送</translation>
    </message>
    <message>
        <source>goodput: %1</source>
        <comment>cmp.value.slo_goodput</comment>
        <translation>有效吞吐量：%1</translation>
    </message>
    <message>
        <source>MLPerf preset %1</source>
        <comment>cmp.value.slo_mlperf_preset</comment>
        <translation>MLPerf 预设 %1</translation>
    </message>
    <message>
        <source>MLPerf: %1</source>
        <comment>cmp.value.slo_mlperf</comment>
        <translation>MLPerf：%1</translation>
    </message>
    <message>
        <source>at p%1</source>
        <comment>cmp.value.slo_percentile</comment>
        <translation>在 p%1</translation>
    </message>
    <message>
        <source>none</source>
        <comment>cmp.value.none</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>cache-busting prompt prefix</source>
        <comment>cmp.value.cache_bust</comment>
        <translation>破坏缓存的提示词前缀</translation>
    </message>
    <message>
        <source>prompts as sampled (prefix cache may hit)</source>
        <comment>cmp.value.cache_as_sampled</comment>
        <translation>按采样原样发送提示词（前缀缓存可能命中）</translation>
    </message>
    <message>
        <source>built-in simulator</source>
        <comment>cmp.value.simulator</comment>
        <translation>内置模拟器</translation>
    </message>
    <message>
        <source>measured by ServeBench</source>
        <comment>cmp.value.measured</comment>
        <translation>由 ServeBench 测量</translation>
    </message>
    <message>
        <source>imported from %1</source>
        <comment>cmp.value.imported</comment>
        <translation>导入自 %1</translation>
    </message>
    <message>
        <source>imported from %1 (summary only)</source>
        <comment>cmp.value.imported_summary</comment>
        <translation>导入自 %1（仅摘要）</translation>
    </message>
    <message>
        <source>Not rankable: %1</source>
        <comment>cmp.verdict.not_rankable</comment>
        <translation>不可排名：%1</translation>
    </message>
    <message>
        <source>Comparable: the runs share the workload and the SUT (repeat runs).</source>
        <comment>cmp.verdict.repeat</comment>
        <translation>可比较：这些运行的工作负载与 SUT 相同（重复运行）。</translation>
    </message>
    <message>
        <source>Comparable: exactly one variable differs — %1.</source>
        <comment>cmp.verdict.one_variable</comment>
        <translation>可比较：恰好一个变量不同——%1。</translation>
    </message>
    <message>
        <source>Confounded: %1 variables differ (%2); a difference in the results cannot be attributed to one of them.</source>
        <comment>cmp.verdict.confounded</comment>
        <translation>变量混杂：有 %1 个变量不同（%2）；结果的差异无法归因于其中某一个。</translation>
    </message>
    <message>
        <source>%1 Not confirmed: %2 unknown for at least one run.</source>
        <comment>cmp.verdict.not_confirmed</comment>
        <translation>%1 未能确认：至少有一次运行的 %2 未知。</translation>
    </message>
    <message>
        <source>SUT (%1)</source>
        <comment>cmp.sut_variable</comment>
        <translation>SUT（%1）</translation>
    </message>
    <message>
        <source>SUT</source>
        <comment>cmp.sut</comment>
        <translation>SUT</translation>
    </message>
    <message>
        <source>the runs use different scenarios (%1). A Server run is judged on latency at an arrival rate, an Offline run on throughput with every query issued at once, a single-stream run on one query at a time: their numbers measure different things.</source>
        <comment>cmp.refusal.scenario</comment>
        <translation>这些运行使用了不同的场景（%1）。Server 运行按给定到达速率下的延迟评判，Offline 运行按所有查询一次发出时的吞吐量评判，单流运行每次只发一个查询：它们的数字衡量的是不同的东西。</translation>
    </message>
    <message>
        <source>the runs used different datasets (%1). Different prompts and output lengths change latency and throughput by themselves.</source>
        <comment>cmp.refusal.dataset</comment>
        <translation>这些运行使用了不同的数据集（%1）。不同的提示词和输出长度本身就会改变延迟和吞吐量。</translation>
    </message>
    <message>
        <source>%1 variables differ: change one thing at a time to attribute a difference.</source>
        <comment>cmp.warning.variables</comment>
        <translation>有 %1 个变量不同：每次只改变一项，才能把差异归因于它。</translation>
    </message>
    <message>
        <source>%1 is unknown for %2: it cannot be confirmed equal.</source>
        <comment>cmp.warning.unknown</comment>
        <translation>%2 的 %1 未知：无法确认其相同。</translation>
    </message>
    <message>
        <source>%1 differs (%2): check the metric definitions before reading small differences.</source>
        <comment>cmp.warning.measurement</comment>
        <translation>%1 不同（%2）：解读细小差异前请核对指标定义。</translation>
    </message>
    <message>
        <source>Comparability: %1</source>
        <comment>cmp.text.heading</comment>
        <translation>可比性：%1</translation>
    </message>
    <message>
        <source>no differences in the compared settings</source>
        <comment>cmp.text.no_differences</comment>
        <translation>所比较的设置没有差异</translation>
    </message>
    <message>
        <source>compared (SUT)</source>
        <comment>cmp.role.sut</comment>
        <translation>比较对象（SUT）</translation>
    </message>
    <message>
        <source>measurement</source>
        <comment>cmp.role.measurement</comment>
        <translation>测量方式</translation>
    </message>
    <message>
        <source>blocks ranking</source>
        <comment>cmp.role.blocker</comment>
        <translation>阻止排名</translation>
    </message>
    <message>
        <source>workload</source>
        <comment>cmp.role.workload</comment>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>WARNING: %1</source>
        <comment>cmp.text.warning</comment>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>Mean %1</source>
        <comment>cmp.row.mean</comment>
        <translation>平均 %1</translation>
    </message>
    <message>
        <source>Median %1</source>
        <comment>cmp.row.median</comment>
        <translation>中位数 %1</translation>
    </message>
    <message>
        <source>Request throughput</source>
        <comment>cmp.row.request_throughput</comment>
        <translation>请求吞吐量</translation>
    </message>
    <message>
        <source>Output token throughput</source>
        <comment>cmp.row.output_throughput</comment>
        <translation>输出 token 吞吐量</translation>
    </message>
    <message>
        <source>Total token throughput</source>
        <comment>cmp.row.total_token_throughput</comment>
        <translation>总 token 吞吐量</translation>
    </message>
    <message>
        <source>Request goodput</source>
        <comment>cmp.row.request_goodput</comment>
        <translation>请求有效吞吐量</translation>
    </message>
    <message>
        <source>MLPerf result</source>
        <comment>cmp.row.mlperf</comment>
        <translation>MLPerf 结果</translation>
    </message>
    <message>
        <source>Successful requests</source>
        <comment>cmp.row.completed</comment>
        <translation>成功请求</translation>
    </message>
    <message>
        <source>Failed requests</source>
        <comment>cmp.row.failed</comment>
        <translation>失败请求</translation>
    </message>
    <message>
        <source>Failure rate</source>
        <comment>cmp.row.failure_rate</comment>
        <translation>失败率</translation>
    </message>
    <message>
        <source>Benchmark duration</source>
        <comment>cmp.row.duration</comment>
        <translation>基准测试时长</translation>
    </message>
    <message>
        <source>Window cost (total)</source>
        <comment>cmp.row.cost_total</comment>
        <translation>窗口成本（总计）</translation>
    </message>
    <message>
        <source>Cost per successful request</source>
        <comment>cmp.row.cost_per_request</comment>
        <translation>每个成功请求的成本</translation>
    </message>
    <message>
        <source>Cost per 1M output tokens</source>
        <comment>cmp.row.cost_per_1m_output_tokens</comment>
        <translation>每百万输出 token 的成本</translation>
    </message>
    <message>
        <source>Throughput</source>
        <comment>cmp.group.throughput</comment>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Requests</source>
        <comment>cmp.group.requests</comment>
        <translation>请求</translation>
    </message>
    <message>
        <source>Cost</source>
        <comment>cmp.group.cost</comment>
        <translation>成本</translation>
    </message>
    <message>
        <source>MLPerf</source>
        <comment>cmp.group.mlperf</comment>
        <translation>MLPerf</translation>
    </message>
    <message>
        <source>n/a</source>
        <comment>cmp.cell.na</comment>
        <translation>不可用</translation>
    </message>
    <message>
        <source>VALID</source>
        <comment>cmp.cell.valid</comment>
        <translation>有效</translation>
    </message>
    <message>
        <source>INVALID</source>
        <comment>cmp.cell.invalid</comment>
        <translation>无效</translation>
    </message>
    <message>
        <source>no successful request</source>
        <comment>cmp.note.no_success</comment>
        <translation>没有成功的请求</translation>
    </message>
    <message>
        <source>no sample</source>
        <comment>cmp.note.no_sample</comment>
        <translation>没有样本</translation>
    </message>
    <message>
        <source>p%1 not computed for this run</source>
        <comment>cmp.note.percentile</comment>
        <translation>此运行未计算 p%1</translation>
    </message>
    <message>
        <source>no duration</source>
        <comment>cmp.note.no_duration</comment>
        <translation>没有时长</translation>
    </message>
    <message>
        <source>no SLO set</source>
        <comment>cmp.note.no_slo</comment>
        <translation>未设置 SLO</translation>
    </message>
    <message>
        <source>no MLPerf scenario</source>
        <comment>cmp.note.no_scenario</comment>
        <translation>没有 MLPerf 场景</translation>
    </message>
    <message>
        <source>imported without records</source>
        <comment>cmp.note.imported_no_records</comment>
        <translation>导入时不含逐请求记录</translation>
    </message>
    <message>
        <source>No ranking: %1</source>
        <comment>cmp.rank.refused</comment>
        <translation>不排名：%1</translation>
    </message>
    <message>
        <source>No ranking: the table has no row &apos;%1&apos;</source>
        <comment>cmp.rank.no_row</comment>
        <translation>不排名：表中没有“%1”这一行</translation>
    </message>
    <message>
        <source>No ranking by %1: %2</source>
        <comment>cmp.rank.no_diffs</comment>
        <translation>不按 %1 排名：%2</translation>
    </message>
    <message>
        <source>Ranked by %1 (lower is better)</source>
        <comment>cmp.rank.lower</comment>
        <translation>按 %1 排名（越低越好）</translation>
    </message>
    <message>
        <source>Ranked by %1 (higher is better)</source>
        <comment>cmp.rank.higher</comment>
        <translation>按 %1 排名（越高越好）</translation>
    </message>
    <message>
        <source>No ranking: the %2 runs are repeats of one candidate, %1 — replicates, not competitors; their differences are run-to-run variation. Pooled figures below.</source>
        <comment>cmp.rank.replicates</comment>
        <translation>不排名：这 %2 次运行是同一候选 %1 的重复——是重复测量，而非相互竞争者；它们之间的差异是运行间的波动。下面给出合并后的数值。</translation>
    </message>
    <message>
        <source>%1; the runs differ in more than one variable, so the ranking does not say which one made the difference</source>
        <comment>cmp.rank.confounded</comment>
        <translation>%1；这些运行有不止一个变量不同，因此排名无法说明是哪一个造成了差异</translation>
    </message>
    <message>
        <source>%1; not available for %2 (ranked last)</source>
        <comment>cmp.rank.missing</comment>
        <translation>%1；%2 没有该值（排在最后）</translation>
    </message>
    <message>
        <source>unit costs are not available: no test window holds these runs</source>
        <comment>cmp.cost.no_window</comment>
        <translation>单位成本不可用：没有测试窗口包含这些运行</translation>
    </message>
    <message>
        <source>not every run lies in a test window: unit costs are shown where available and not compared</source>
        <comment>cmp.cost.not_all_covered</comment>
        <translation>并非每次运行都在测试窗口内：单位成本仅在可用处显示，不做比较</translation>
    </message>
    <message>
        <source>the windows are in different currencies (%1): not compared</source>
        <comment>cmp.cost.currencies</comment>
        <translation>这些窗口使用不同的货币（%1）：不做比较</translation>
    </message>
    <message>
        <source>the test windows do not hold the same single load (%1): unit costs are comparable only over matching windows and load</source>
        <comment>cmp.cost.loads</comment>
        <translation>这些测试窗口所含的负载不是同一个单一负载（%1）：单位成本只有在窗口和负载相匹配时才可比较</translation>
    </message>
    <message>
        <source>the runs differ in their workload: unit costs are not compared</source>
        <comment>cmp.cost.workload</comment>
        <translation>这些运行的工作负载不同：不比较单位成本</translation>
    </message>
    <message>
        <source>%1: its window &apos;%2&apos; holds %3 runs; unit costs are over all of them</source>
        <comment>cmp.cost.shared_window</comment>
        <translation>%1：其窗口“%2”包含 %3 次运行；单位成本是按全部这些运行计算的</translation>
    </message>
    <message>
        <source>================ Run comparison ================</source>
        <comment>cmp.text.title</comment>
        <translation>================ 运行比较 ================</translation>
    </message>
    <message>
        <source>metric</source>
        <comment>cmp.text.metric</comment>
        <translation>指标</translation>
    </message>
    <message>
        <source>%1 (base)</source>
        <comment>cmp.text.base</comment>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <comment>cmp.text.cost</comment>
        <translation>成本：%1</translation>
    </message>
    <message>
        <source>%1: left out — %2</source>
        <comment>curve.left_out</comment>
        <translation>%1：未纳入——%2</translation>
    </message>
    <message>
        <source>imported without per-request results, so its numbers cannot be recomputed from raw records</source>
        <comment>curve.imported</comment>
        <translation>导入时不含逐请求结果，因此其数字无法从原始记录重新计算</translation>
    </message>
    <message>
        <source>no %1 %2</source>
        <comment>curve.no_stat</comment>
        <translation>没有 %1 %2</translation>
    </message>
    <message>
        <source>(unnamed SUT)</source>
        <comment>curve.unnamed_sut</comment>
        <translation>（未命名的 SUT）</translation>
    </message>
    <message>
        <source>%1 — cumulative distribution</source>
        <comment>chart.cdf.title</comment>
        <translation>%1——累积分布</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <comment>chart.cdf.x</comment>
        <translation>%1（ms）</translation>
    </message>
    <message>
        <source>fraction of samples ≤ x</source>
        <comment>chart.cdf.y</comment>
        <translation>样本中 ≤ x 的比例</translation>
    </message>
    <message>
        <source>no per-request samples in any run</source>
        <comment>chart.no_samples</comment>
        <translation>所有运行都没有逐请求样本</translation>
    </message>
    <message>
        <source>no per-request samples for %1</source>
        <comment>chart.no_samples_for</comment>
        <translation>%1 没有逐请求样本</translation>
    </message>
    <message>
        <source>Request throughput and goodput</source>
        <comment>chart.requests.title</comment>
        <translation>请求吞吐量与有效吞吐量</translation>
    </message>
    <message>
        <source>Token throughput</source>
        <comment>chart.tokens.title</comment>
        <translation>Token 吞吐量</translation>
    </message>
    <message>
        <source>request throughput</source>
        <comment>chart.series.request_throughput</comment>
        <translation>请求吞吐量</translation>
    </message>
    <message>
        <source>goodput</source>
        <comment>chart.series.goodput</comment>
        <translation>有效吞吐量</translation>
    </message>
    <message>
        <source>output tokens</source>
        <comment>chart.series.output_tokens</comment>
        <translation>输出 token</translation>
    </message>
    <message>
        <source>input + output tokens</source>
        <comment>chart.series.total_tokens</comment>
        <translation>输入 + 输出 token</translation>
    </message>
    <message>
        <source>imported without per-request results: the numbers are the file&apos;s own summary; distributions and failures by request are not available</source>
        <comment>run.note.imported_summary</comment>
        <translation>导入时不含逐请求结果：数字取自文件自带的摘要；分布和逐请求的失败信息不可用</translation>
    </message>
    <message>
        <source>backend &apos;%1&apos; is not an OpenAI flavour ServeBench knows</source>
        <comment>import.note.backend</comment>
        <translation>后端“%1”不是 ServeBench 已知的 OpenAI 类型</translation>
    </message>
    <message>
        <source>the file&apos;s duration (%1 s) is shorter than its longest request; throughputs are recomputed over the longer span</source>
        <comment>import.note.duration</comment>
        <translation>文件记录的时长（%1 秒）短于其最长的请求；吞吐量按更长的时间跨度重新计算</translation>
    </message>
    <message>
        <source>vLLM&apos;s file has no send times: every request is placed at one instant, so schedule lag, client queue time, achieved rate and peak concurrency are not available</source>
        <comment>import.note.no_send_times</comment>
        <translation>vLLM 的文件没有发送时间：所有请求都被放在同一时刻，因此调度延迟、客户端排队时间、实际速率和峰值并发均不可用</translation>
    </message>
    <message>
        <source>vLLM does not save its --goodput SLOs: the file&apos;s goodput is shown as stated, not recomputed</source>
        <comment>import.note.goodput</comment>
        <translation>vLLM 不保存其 --goodput SLO：文件中的有效吞吐量按原值显示，未重新计算</translation>
    </message>
    <message>
        <source>the file was saved without --save-detailed: per-request results are not available, only the file&apos;s summary</source>
        <comment>import.note.no_detail</comment>
        <translation>该文件保存时未使用 --save-detailed：没有逐请求结果，只有文件的摘要</translation>
    </message>
    <message>
        <source>TTFT</source>
        <comment>metric.ttft.label</comment>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>t_first − t_send</source>
        <comment>metric.ttft.definition</comment>
        <translation>t_first − t_send</translation>
    </message>
    <message>
        <source>Time to first token; successful measured requests only.</source>
        <comment>metric.ttft.detail</comment>
        <translation>首 token 时间；仅统计成功的计量请求。</translation>
    </message>
    <message>
        <source>E2EL</source>
        <comment>metric.e2el.label</comment>
        <translation>E2EL</translation>
    </message>
    <message>
        <source>t_last − t_send (the usage chunk and [DONE] do not count)</source>
        <comment>metric.e2el.definition</comment>
        <translation>t_last − t_send（usage 块和 [DONE] 不计入）</translation>
    </message>
    <message>
        <source>TPOT</source>
        <comment>metric.tpot.label</comment>
        <translation>TPOT</translation>
    </message>
    <message>
        <source>(E2EL − TTFT) / (n_out − 1), only for n_out &gt; 1; excludes the first token</source>
        <comment>metric.tpot.definition</comment>
        <translation>(E2EL − TTFT) / (n_out − 1)，仅当 n_out &gt; 1；不含首个 token</translation>
    </message>
    <message>
        <source>Time per output token; n_out is the request&apos;s output token count (server usage when reported, else one token per token chunk). Successful requests with n_out &lt;= 1 have no TPOT sample; for goodput their TPOT counts as 0, as in vLLM.</source>
        <comment>metric.tpot.detail</comment>
        <translation>每个输出 token 的时间；n_out 是请求的输出 token 数（服务器报告 usage 时取其值，否则每个 token 块计一个 token）。n_out &lt;= 1 的成功请求没有 TPOT 样本；计算有效吞吐量时其 TPOT 记为 0，与 vLLM 相同。</translation>
    </message>
    <message>
        <source>ITL</source>
        <comment>metric.itl.label</comment>
        <translation>ITL</translation>
    </message>
    <message>
        <source>every gap t_k − t_{k−1} between consecutive token chunks, pooled over requests (per chunk)</source>
        <comment>metric.itl.definition</comment>
        <translation>相邻 token 块之间的每个间隔 t_k − t_{k−1}，跨请求汇总（按块计）</translation>
    </message>
    <message>
        <source>Inter-token latency; pooled over successful measured requests.</source>
        <comment>metric.itl.detail</comment>
        <translation>token 间延迟；在成功的计量请求上汇总。</translation>
    </message>
    <message>
        <source>ITL per token</source>
        <comment>metric.itl_per_token.label</comment>
        <translation>每 token ITL</translation>
    </message>
    <message>
        <source>each gap divided by the tokens in the later chunk; equals ITL without multi-token chunks; differs under speculative decoding — show both, never mix them</source>
        <comment>metric.itl_per_token.definition</comment>
        <translation>每个间隔除以后一个块中的 token 数；没有多 token 块时等于 ITL；在推测解码下两者不同——两者都显示，绝不混用</translation>
    </message>
    <message>
        <source>Pooled over successful measured requests; a chunk without a token count counts as one token.</source>
        <comment>metric.itl_per_token.detail</comment>
        <translation>在成功的计量请求上汇总；没有 token 数的块按一个 token 计。</translation>
    </message>
    <message>
        <source>Schedule lag</source>
        <comment>metric.schedule_lag.label</comment>
        <translation>调度延迟</translation>
    </message>
    <message>
        <source>t_send − t_sched; the client&apos;s own lateness. Large lag means the client, not the SUT, limited the run, and the run must say so</source>
        <comment>metric.schedule_lag.definition</comment>
        <translation>t_send − t_sched；客户端自身的滞后。滞后大说明限制本次运行的是客户端而不是 SUT，运行结果必须注明这一点</translation>
    </message>
    <message>
        <source>Over every measured request that was sent (successful or failed): lateness is a property of the client, not of the response.</source>
        <comment>metric.schedule_lag.detail</comment>
        <translation>统计每个已发送的计量请求（无论成功或失败）：滞后是客户端的属性，而非响应的属性。</translation>
    </message>
    <message>
        <source>Client queue time</source>
        <comment>metric.client_queue_time.label</comment>
        <translation>客户端排队时间</translation>
    </message>
    <message>
        <source>time a request waited for a concurrency slot</source>
        <comment>metric.client_queue_time.definition</comment>
        <translation>请求等待并发槽位的时间</translation>
    </message>
    <message>
        <source>t_dispatch − t_queued (slot granted minus due), over every measured request that was sent and has t_queued; the hop from dispatcher to transport counts as schedule lag.</source>
        <comment>metric.client_queue_time.detail</comment>
        <translation>t_dispatch − t_queued（获得槽位时刻减去应发时刻），统计每个已发送且有 t_queued 的计量请求；从调度器到传输层的这一跳计入调度延迟。</translation>
    </message>
    <message>
        <source>TTFT from schedule</source>
        <comment>metric.ttft_from_sched.label</comment>
        <translation>自调度起的 TTFT</translation>
    </message>
    <message>
        <source>MLPerf-style latency is measured from t_sched (LoadGen&apos;s rule)</source>
        <comment>metric.from_sched.definition</comment>
        <translation>MLPerf 风格的延迟从 t_sched 起算（LoadGen 的规则）</translation>
    </message>
    <message>
        <source>t_first − t_sched; successful measured requests only.</source>
        <comment>metric.ttft_from_sched.detail</comment>
        <translation>t_first − t_sched；仅统计成功的计量请求。</translation>
    </message>
    <message>
        <source>E2EL from schedule</source>
        <comment>metric.e2el_from_sched.label</comment>
        <translation>自调度起的 E2EL</translation>
    </message>
    <message>
        <source>Request throughput</source>
        <comment>metric.request_throughput.label</comment>
        <translation>请求吞吐量</translation>
    </message>
    <message>
        <source>successful requests / duration</source>
        <comment>metric.request_throughput.definition</comment>
        <translation>成功请求数 / 时长</translation>
    </message>
    <message>
        <source>Output token throughput</source>
        <comment>metric.output_throughput.label</comment>
        <translation>输出 token 吞吐量</translation>
    </message>
    <message>
        <source>Σ n_out of successful requests / duration</source>
        <comment>metric.output_throughput.definition</comment>
        <translation>成功请求的 Σ n_out / 时长</translation>
    </message>
    <message>
        <source>Total token throughput</source>
        <comment>metric.total_token_throughput.label</comment>
        <translation>总 token 吞吐量</translation>
    </message>
    <message>
        <source>Σ (n_in + n_out) of successful requests / duration</source>
        <comment>metric.total_token_throughput.definition</comment>
        <translation>成功请求的 Σ (n_in + n_out) / 时长</translation>
    </message>
    <message>
        <source>Request goodput</source>
        <comment>metric.request_goodput.label</comment>
        <translation>请求有效吞吐量</translation>
    </message>
    <message>
        <source>successful requests meeting every SLO (e.g. TTFT ≤ 200 ms and TPOT ≤ 50 ms) / duration</source>
        <comment>metric.request_goodput.definition</comment>
        <translation>满足所有 SLO（例如 TTFT ≤ 200 ms 且 TPOT ≤ 50 ms）的成功请求数 / 时长</translation>
    </message>
    <message>
        <source>Each set SLO is inclusive (value &lt;= SLO), as in vLLM; only set SLOs are checked.</source>
        <comment>metric.request_goodput.detail</comment>
        <translation>每个设定的 SLO 都包含边界（值 &lt;= SLO），与 vLLM 相同；只检查已设定的 SLO。</translation>
    </message>
    <message>
        <source>Duration</source>
        <comment>metric.duration.label</comment>
        <translation>时长</translation>
    </message>
    <message>
        <source>from the first send to the last completion of the measured (non-warm-up) requests</source>
        <comment>metric.duration.definition</comment>
        <translation>从计量（非预热）请求的第一次发送到最后一次完成</translation>
    </message>
    <message>
        <source>Earliest t_send to the latest t_end (t_last, then t_send, when the stream never finished) over all measured requests, failed ones included: they occupied the run.</source>
        <comment>metric.duration.detail</comment>
        <translation>所有计量请求（包括失败的请求，它们也占用了本次运行）中最早的 t_send 到最晚的 t_end（流未结束时依次取 t_last、t_send）。</translation>
    </message>
    <message>
        <source>Achieved request rate</source>
        <comment>metric.achieved_request_rate.label</comment>
        <translation>实际请求速率</translation>
    </message>
    <message>
        <source>(sent requests − 1) / (last t_send − first t_send) of the measured requests</source>
        <comment>metric.achieved_request_rate.definition</comment>
        <translation>计量请求的（已发送请求数 − 1）/（最后 t_send − 最早 t_send）</translation>
    </message>
    <message>
        <source>Compare with the configured rate; a shortfall means the client or the concurrency cap held requests back.</source>
        <comment>metric.achieved_request_rate.detail</comment>
        <translation>与配置的速率比较；若不足，说明客户端或并发上限拖住了请求。</translation>
    </message>
    <message>
        <source>All times per request are from the monotonic clock. t_sched = when the schedule said to send, t_send = when the request was handed to the transport, t_first = first token chunk received, t_k = k-th token chunk received, t_last = last token chunk, n_out = output tokens.</source>
        <comment>metric.statement.time_base</comment>
        <translation>每个请求的所有时间都取自单调时钟。t_sched = 调度计划要求发送的时刻，t_send = 请求交给传输层的时刻，t_first = 收到第一个 token 块的时刻，t_k = 收到第 k 个 token 块的时刻，t_last = 最后一个 token 块的时刻，n_out = 输出 token 数。</translation>
    </message>
    <message>
        <source>Percentiles use linear interpolation between order statistics (numpy&apos;s default, what vLLM reports): rank = p/100 · (N − 1). MLPerf-style summaries use LoadGen&apos;s sorted[floor(N·p)]. Standard deviations are population (ddof = 0).</source>
        <comment>metric.statement.percentiles</comment>
        <translation>百分位数在顺序统计量之间线性插值（numpy 的默认方法，也是 vLLM 报告的方式）：位次 = p/100 · (N − 1)。MLPerf 风格的摘要使用 LoadGen 的 sorted[floor(N·p)]。标准差为总体标准差（ddof = 0）。</translation>
    </message>
    <message>
        <source>Failed requests count in failed with their error, are excluded from latency statistics and from throughput numerators, and are shown, never hidden.</source>
        <comment>metric.statement.failed</comment>
        <translation>失败的请求连同其错误计入 failed，不计入延迟统计和吞吐量的分子，并且始终显示，绝不隐藏。</translation>
    </message>
    <message>
        <source>Warm-up requests are excluded from everything but are stored.</source>
        <comment>metric.statement.warmup</comment>
        <translation>预热请求不计入任何统计，但会被保存。</translation>
    </message>
    <message>
        <source>Token counts prefer the server&apos;s usage; else the model&apos;s tokenizer (--tokenizer) counts the streamed text; else token chunks are counted (one token per chunk); the input count falls back to the dataset&apos;s length. The source of each count is recorded.</source>
        <comment>metric.statement.tokens</comment>
        <translation>token 数优先采用服务器的 usage；否则由模型的分词器（--tokenizer）对流式返回的文本计数；再否则按 token 块计数（每块一个 token）；输入 token 数退而采用数据集中的长度。每个计数的来源都会记录。</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <comment>metric.tooltip</comment>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>no error</source>
        <comment>error_class.none</comment>
        <translation>无错误</translation>
    </message>
    <message>
        <source>HTTP 429 (too many requests)</source>
        <comment>error_class.http_429</comment>
        <translation>HTTP 429（请求过多）</translation>
    </message>
    <message>
        <source>HTTP 4xx (client error)</source>
        <comment>error_class.http_4xx</comment>
        <translation>HTTP 4xx（客户端错误）</translation>
    </message>
    <message>
        <source>HTTP 5xx (server error)</source>
        <comment>error_class.http_5xx</comment>
        <translation>HTTP 5xx（服务器错误）</translation>
    </message>
    <message>
        <source>unexpected HTTP status</source>
        <comment>error_class.http_other</comment>
        <translation>意外的 HTTP 状态</translation>
    </message>
    <message>
        <source>connection failed</source>
        <comment>error_class.connect</comment>
        <translation>连接失败</translation>
    </message>
    <message>
        <source>connection reset</source>
        <comment>error_class.reset</comment>
        <translation>连接被重置</translation>
    </message>
    <message>
        <source>timeout</source>
        <comment>error_class.timeout</comment>
        <translation>超时</translation>
    </message>
    <message>
        <source>error in the stream</source>
        <comment>error_class.stream_error</comment>
        <translation>流中出现错误</translation>
    </message>
    <message>
        <source>invalid JSON in the stream</source>
        <comment>error_class.invalid_json</comment>
        <translation>流中 JSON 无效</translation>
    </message>
    <message>
        <source>stream ended early</source>
        <comment>error_class.incomplete</comment>
        <translation>流提前结束</translation>
    </message>
    <message>
        <source>no tokens received</source>
        <comment>error_class.no_tokens</comment>
        <translation>未收到 token</translation>
    </message>
    <message>
        <source>cancelled</source>
        <comment>error_class.cancelled</comment>
        <translation>已取消</translation>
    </message>
    <message>
        <source>transport failure</source>
        <comment>error_class.transport</comment>
        <translation>传输失败</translation>
    </message>
    <message>
        <source>none</source>
        <comment>token_source.none</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>server usage</source>
        <comment>token_source.server_usage</comment>
        <translation>服务器 usage</translation>
    </message>
    <message>
        <source>chunk count</source>
        <comment>token_source.chunk_count</comment>
        <translation>块计数</translation>
    </message>
    <message>
        <source>dataset length</source>
        <comment>token_source.dataset</comment>
        <translation>数据集长度</translation>
    </message>
    <message>
        <source>unknown</source>
        <comment>token_source.unknown</comment>
        <translation>未知</translation>
    </message>
    <message>
        <source>mixed (%1)</source>
        <comment>token_source.mixed</comment>
        <translation>混合（%1）</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>token_source.part</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>the client could not keep its schedule: lateness p99 %1 ms (&gt; %2 ms) — the client, not the SUT, limited this run</source>
        <comment>health.lateness</comment>
        <translation>客户端未能按调度计划发送：滞后 p99 为 %1 ms（&gt; %2 ms）——限制本次运行的是客户端，而不是 SUT</translation>
    </message>
    <message>
        <source>the client sent at %1 req/s, below 95 % of the scheduled %2 req/s — the client, not the SUT, limited this run</source>
        <comment>health.rate</comment>
        <translation>客户端的发送速率为 %1 req/s，低于计划速率 %2 req/s 的 95 %——限制本次运行的是客户端，而不是 SUT</translation>
    </message>
    <message>
        <source>no measured requests</source>
        <comment>mlperf.no_measured</comment>
        <translation>没有计量请求</translation>
    </message>
    <message>
        <source>no latency bound set (TTFT or TPOT)</source>
        <comment>mlperf.no_bound</comment>
        <translation>未设置延迟上限（TTFT 或 TPOT）</translation>
    </message>
    <message>
        <source>no successful requests</source>
        <comment>mlperf.no_success</comment>
        <translation>没有成功的请求</translation>
    </message>
    <message>
        <source>TTFT %1 %2 ms &gt; %3 ms</source>
        <comment>mlperf.ttft_bound</comment>
        <translation>TTFT %1 %2 ms &gt; %3 ms</translation>
    </message>
    <message>
        <source>TPOT %1 %2 ms &gt; %3 ms</source>
        <comment>mlperf.tpot_bound</comment>
        <translation>TPOT %1 %2 ms &gt; %3 ms</translation>
    </message>
    <message>
        <source>early stopping (TTFT)</source>
        <comment>mlperf.early_ttft</comment>
        <translation>提前停止判定未通过（TTFT）</translation>
    </message>
    <message>
        <source>early stopping (TPOT)</source>
        <comment>mlperf.early_tpot</comment>
        <translation>提前停止判定未通过（TPOT）</translation>
    </message>
    <message>
        <source>early stopping (E2EL)</source>
        <comment>mlperf.early_e2el</comment>
        <translation>提前停止判定未通过（E2EL）</translation>
    </message>
    <message>
        <source>early stopping (E2EL): %1 failed requests reach the %2 estimate</source>
        <comment>mlperf.early_e2el_failed</comment>
        <translation>提前停止判定（E2EL）：%1 个失败请求落入 %2 估计值</translation>
    </message>
    <message>
        <source>failed requests %1 &gt; 0 (Offline must process every sample)</source>
        <comment>mlperf.offline_failed</comment>
        <translation>失败请求 %1 &gt; 0（Offline 必须处理每个样本）</translation>
    </message>
    <message>
        <source>no MLPerf scenario</source>
        <comment>mlperf.no_scenario</comment>
        <translation>没有 MLPerf 场景</translation>
    </message>
    <message>
        <source>min_query_count %1 &gt; %2</source>
        <comment>mlperf.min_query_count</comment>
        <translation>min_query_count %1 &gt; %2</translation>
    </message>
    <message>
        <source>min_duration %1 s &gt; %2 s</source>
        <comment>mlperf.min_duration</comment>
        <translation>min_duration %1 秒 &gt; %2 秒</translation>
    </message>
    <message>
        <source>--mlperf-preset &apos;%1&apos; is unknown; known presets: %2</source>
        <comment>mlperf.preset_unknown</comment>
        <translation>--mlperf-preset“%1”未知；已知的预设：%2</translation>
    </message>
    <message>
        <source>--slo-percentile must be below 100</source>
        <comment>mlperf.slo_percentile</comment>
        <translation>--slo-percentile 必须小于 100</translation>
    </message>
    <message>
        <source>MLPerf judgement not possible: %1</source>
        <comment>mlperf.not_judged</comment>
        <translation>无法进行 MLPerf 判定：%1</translation>
    </message>
    <message>
        <source>Cost breakdown</source>
        <comment>cost.heading.breakdown</comment>
        <translation>成本明细</translation>
    </message>
    <message>
        <source>Test window</source>
        <comment>cost.line.window</comment>
        <translation>测试窗口</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <comment>cost.unnamed</comment>
        <translation>（未命名）</translation>
    </message>
    <message>
        <source>SUT</source>
        <comment>cost.line.sut</comment>
        <translation>SUT</translation>
    </message>
    <message>
        <source>From</source>
        <comment>cost.line.from</comment>
        <translation>起始</translation>
    </message>
    <message>
        <source>To (exclusive)</source>
        <comment>cost.line.to</comment>
        <translation>结束（不含）</translation>
    </message>
    <message>
        <source>Duration</source>
        <comment>cost.line.duration</comment>
        <translation>时长</translation>
    </message>
    <message>
        <source>Runs</source>
        <comment>cost.line.runs</comment>
        <translation>运行</translation>
    </message>
    <message>
        <source>none</source>
        <comment>cost.none</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>Currency</source>
        <comment>cost.line.currency</comment>
        <translation>货币</translation>
    </message>
    <message>
        <source>Successful requests</source>
        <comment>cost.line.successful</comment>
        <translation>成功请求</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <comment>cost.line.output_tokens</comment>
        <translation>输出 token</translation>
    </message>
    <message>
        <source>Errors</source>
        <comment>cost.heading.errors</comment>
        <translation>错误</translation>
    </message>
    <message>
        <source>(+%1 item(s) needing a decision, not counted)</source>
        <comment>cost.pending</comment>
        <translation>（另有 %1 项待决定，未计入）</translation>
    </message>
    <message>
        <source>By category</source>
        <comment>cost.heading.by_category</comment>
        <translation>按类别</translation>
    </message>
    <message>
        <source>not available</source>
        <comment>cost.not_available</comment>
        <translation>不可用</translation>
    </message>
    <message>
        <source>not available (%1)</source>
        <comment>cost.not_available_why</comment>
        <translation>不可用（%1）</translation>
    </message>
    <message>
        <source>Total</source>
        <comment>cost.line.total</comment>
        <translation>总计</translation>
    </message>
    <message>
        <source>Unit cost</source>
        <comment>cost.heading.unit</comment>
        <translation>单位成本</translation>
    </message>
    <message>
        <source>Cost per successful request</source>
        <comment>cost.line.per_request</comment>
        <translation>每个成功请求的成本</translation>
    </message>
    <message>
        <source>Cost per output token</source>
        <comment>cost.line.per_token</comment>
        <translation>每个输出 token 的成本</translation>
    </message>
    <message>
        <source>Cost per 1M output tokens</source>
        <comment>cost.line.per_million</comment>
        <translation>每百万输出 token 的成本</translation>
    </message>
    <message>
        <source>Included</source>
        <comment>cost.items.included</comment>
        <translation>已计入</translation>
    </message>
    <message>
        <source>Overlapping, counted by choice</source>
        <comment>cost.items.overlapping</comment>
        <translation>部分重叠，按所选规则计入</translation>
    </message>
    <message>
        <source>Overlapping, NEEDS A DECISION (not counted)</source>
        <comment>cost.items.undecided</comment>
        <translation>部分重叠，需要决定（未计入）</translation>
    </message>
    <message>
        <source>Excluded</source>
        <comment>cost.items.excluded</comment>
        <translation>已排除</translation>
    </message>
    <message>
        <source>%1 (%2):</source>
        <comment>cost.items.title</comment>
        <translation>%1（%2）：</translation>
    </message>
    <message>
        <source>Bill items</source>
        <comment>cost.heading.items</comment>
        <translation>账单项目</translation>
    </message>
    <message>
        <source>(id %1)</source>
        <comment>cost.item.id</comment>
        <translation>（id %1）</translation>
    </message>
    <message>
        <source>counted %1 %2</source>
        <comment>cost.item.counted</comment>
        <translation>计入 %1 %2</translation>
    </message>
    <message>
        <source>item total %1 %2: %3</source>
        <comment>cost.item.total</comment>
        <translation>项目总额 %1 %2：%3</translation>
    </message>
    <message>
        <source>source not stated</source>
        <comment>cost.item.source_missing</comment>
        <translation>未说明来源</translation>
    </message>
    <message>
        <source>%1 (confirmed)</source>
        <comment>cost.item.confirmed</comment>
        <translation>%1（已确认）</translation>
    </message>
    <message>
        <source>%1 (not confirmed)</source>
        <comment>cost.item.not_confirmed</comment>
        <translation>%1（未确认）</translation>
    </message>
    <message>
        <source>idle: %1</source>
        <comment>cost.item.idle</comment>
        <translation>空闲：%1</translation>
    </message>
    <message>
        <source>start/stop: %1</source>
        <comment>cost.item.start_stop</comment>
        <translation>启停：%1</translation>
    </message>
    <message>
        <source>autoscaling: %1</source>
        <comment>cost.item.autoscaling</comment>
        <translation>自动扩缩：%1</translation>
    </message>
    <message>
        <source>Conversion rates</source>
        <comment>cost.heading.rates</comment>
        <translation>汇率</translation>
    </message>
    <message>
        <source>Warnings</source>
        <comment>cost.heading.warnings</comment>
        <translation>警告</translation>
    </message>
    <message>
        <source>Rounding: %1</source>
        <comment>cost.rounding</comment>
        <translation>舍入：%1</translation>
    </message>
    <message>
        <source>amounts are exact to 1e-9 of the currency; prorating, conversion and unit costs round once to 1e-9, half to even; shown amounts are rounded half to even (banker&apos;s rounding) to the currency&apos;s minor unit</source>
        <comment>cost.rounding_rule</comment>
        <translation>金额精确到货币单位的 1e-9；按比例分摊、货币换算和单位成本只舍入一次到 1e-9（四舍六入五成双）；显示的金额按四舍六入五成双（银行家舍入）舍入到货币的最小单位</translation>
    </message>
    <message>
        <source>GPU</source>
        <comment>cost.category.gpu</comment>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <comment>cost.category.cpu</comment>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Storage</source>
        <comment>cost.category.storage</comment>
        <translation>存储</translation>
    </message>
    <message>
        <source>Network</source>
        <comment>cost.category.network</comment>
        <translation>网络</translation>
    </message>
    <message>
        <source>Platform</source>
        <comment>cost.category.platform</comment>
        <translation>平台</translation>
    </message>
    <message>
        <source>Other</source>
        <comment>cost.category.other</comment>
        <translation>其他</translation>
    </message>
    <message>
        <source>invoice</source>
        <comment>cost.source.invoice</comment>
        <translation>发票</translation>
    </message>
    <message>
        <source>quote</source>
        <comment>cost.source.quote</comment>
        <translation>报价单</translation>
    </message>
    <message>
        <source>pricing page</source>
        <comment>cost.source.pricing_page</comment>
        <translation>价格页面</translation>
    </message>
    <message>
        <source>bill item &apos;%1&apos;</source>
        <comment>cost.why.item_id</comment>
        <translation>账单项目“%1”</translation>
    </message>
    <message>
        <source>bill item #%1</source>
        <comment>cost.why.item_index</comment>
        <translation>账单项目 #%1</translation>
    </message>
    <message>
        <source>overlaps the window for %1 of its %2</source>
        <comment>cost.why.overlap</comment>
        <translation>与窗口重叠 %1（共 %2）</translation>
    </message>
    <message>
        <source>%1; prorated by time: %2 × %3 / %4 = %5 %6</source>
        <comment>cost.why.prorated_total</comment>
        <translation>%1；按时间分摊：%2 × %3 / %4 = %5 %6</translation>
    </message>
    <message>
        <source>%1; prorated by time: %2 billed as %3 (%4) = %5 %6</source>
        <comment>cost.why.prorated_time</comment>
        <translation>%1；按时间分摊：%2 按 %3 计费（%4）= %5 %6</translation>
    </message>
    <message>
        <source>%1; prorated by time: %2 of %3 %4(s) billable in the window × %5 = %6 %7</source>
        <comment>cost.why.prorated_count</comment>
        <translation>%1；按时间分摊：窗口内可计费 %2 / %3 个 %4 × %5 = %6 %7</translation>
    </message>
    <message>
        <source>an instant outside the window (an instant counts when window start ≤ it &lt; window end)</source>
        <comment>cost.why.instant_outside</comment>
        <translation>窗口之外的一个瞬时项目（瞬时项目在 窗口开始 ≤ 它 &lt; 窗口结束 时才计入）</translation>
    </message>
    <message>
        <source>ends at or before the window start</source>
        <comment>cost.why.ends_before</comment>
        <translation>在窗口开始时或之前结束</translation>
    </message>
    <message>
        <source>starts at or after the window end</source>
        <comment>cost.why.starts_after</comment>
        <translation>在窗口结束时或之后开始</translation>
    </message>
    <message>
        <source>an instant inside the window: counted whole</source>
        <comment>cost.why.instant_inside</comment>
        <translation>窗口内的一个瞬时项目：全额计入</translation>
    </message>
    <message>
        <source>inside the window: counted whole</source>
        <comment>cost.why.inside</comment>
        <translation>完全在窗口内：全额计入</translation>
    </message>
    <message>
        <source>%1; needs a decision (prorate by time or include whole): left out of the totals</source>
        <comment>cost.why.needs_decision</comment>
        <translation>%1；需要决定（按时间分摊或全额计入）：未计入总额</translation>
    </message>
    <message>
        <source>%1; included whole by the user&apos;s choice</source>
        <comment>cost.why.whole</comment>
        <translation>%1；按用户选择全额计入</translation>
    </message>
    <message>
        <source>%1; converted at 1 %2 = %3 %4: %5 %4</source>
        <comment>cost.why.converted</comment>
        <translation>%1；按 1 %2 = %3 %4 换算：%5 %4</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>cost.error.item</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 appears twice</source>
        <comment>cost.error.twice</comment>
        <translation>%1 出现了两次</translation>
    </message>
    <message>
        <source>conversion rate %1→%2 = %3 is not valid (ISO 4217 codes and a rate above zero)</source>
        <comment>cost.error.rate</comment>
        <translation>汇率 %1→%2 = %3 无效（需要 ISO 4217 代码和大于零的汇率）</translation>
    </message>
    <message>
        <source>report currency &apos;%1&apos; is not an ISO 4217 code</source>
        <comment>cost.error.report_currency</comment>
        <translation>报告货币“%1”不是 ISO 4217 代码</translation>
    </message>
    <message>
        <source>the cost inputs have errors</source>
        <comment>cost.error.inputs</comment>
        <translation>成本输入有错误</translation>
    </message>
    <message>
        <source>%1: prorated amount out of range</source>
        <comment>cost.error.prorated_range</comment>
        <translation>%1：分摊金额超出范围</translation>
    </message>
    <message>
        <source>the counted bill items are in different currencies (%1): choose a report currency and give conversion rates</source>
        <comment>cost.error.currencies</comment>
        <translation>计入的账单项目使用不同的货币（%1）：请选择报告货币并给出汇率</translation>
    </message>
    <message>
        <source>mixed currencies</source>
        <comment>cost.error.mixed</comment>
        <translation>货币混杂</translation>
    </message>
    <message>
        <source>%1 is in %2 but the report is in %3: give a %2→%3 conversion rate</source>
        <comment>cost.error.no_rate</comment>
        <translation>%1 以 %2 计价，但报告使用 %3：请给出 %2→%3 的汇率</translation>
    </message>
    <message>
        <source>%1: converted amount out of range</source>
        <comment>cost.error.converted_range</comment>
        <translation>%1：换算后的金额超出范围</translation>
    </message>
    <message>
        <source>the total is out of range</source>
        <comment>cost.error.total_range</comment>
        <translation>总额超出范围</translation>
    </message>
    <message>
        <source>no bill items: add the SUT&apos;s bills (the tool never makes up a price)</source>
        <comment>cost.error.no_items</comment>
        <translation>没有账单项目：请添加该 SUT 的账单（本工具从不编造价格）</translation>
    </message>
    <message>
        <source>no bill item counts toward this window (%1 excluded, %2 need a decision)</source>
        <comment>cost.error.none_counts</comment>
        <translation>没有账单项目计入此窗口（%1 项被排除，%2 项待决定）</translation>
    </message>
    <message>
        <source>%1 bill item(s) overlapping the window need a decision (prorate or include whole)</source>
        <comment>cost.warning.undecided</comment>
        <translation>有 %1 个与窗口部分重叠的账单项目需要决定（分摊或全额计入）</translation>
    </message>
    <message>
        <source>%1; the total leaves them out</source>
        <comment>cost.warning.left_out</comment>
        <translation>%1；总额未计入它们</translation>
    </message>
    <message>
        <source>the window holds no successful requests</source>
        <comment>cost.reason.no_requests</comment>
        <translation>窗口内没有成功的请求</translation>
    </message>
    <message>
        <source>out of range</source>
        <comment>cost.reason.range</comment>
        <translation>超出范围</translation>
    </message>
    <message>
        <source>the window holds no output tokens</source>
        <comment>cost.reason.no_tokens</comment>
        <translation>窗口内没有输出 token</translation>
    </message>
    <message>
        <source>the window holds runs with different loads (%1): the unit costs are over all of them together, not an average per load</source>
        <comment>cost.warning.loads</comment>
        <translation>窗口内的运行使用了不同的负载（%1）：单位成本是按它们的总和计算的，而不是每种负载的平均值</translation>
    </message>
    <message>
        <source>the window holds no runs</source>
        <comment>cost.warning.no_runs</comment>
        <translation>窗口内没有运行</translation>
    </message>
    <message>
        <source>%1 counted bill item(s) are not confirmed against an invoice</source>
        <comment>cost.warning.unconfirmed</comment>
        <translation>有 %1 个计入的账单项目未与发票核对确认</translation>
    </message>
    <message>
        <source>the project could not be read completely (see errors)</source>
        <comment>cost.reason.project</comment>
        <translation>项目未能完整读取（见错误）</translation>
    </message>
    <message>
        <source>the project has no test windows</source>
        <comment>cost.reason.no_windows</comment>
        <translation>项目中没有测试窗口</translation>
    </message>
    <message>
        <source>no test window holds run %1</source>
        <comment>cost.reason.no_window_for</comment>
        <translation>没有测试窗口包含运行 %1</translation>
    </message>
    <message>
        <source>%1 %2 for the interval</source>
        <comment>cost.pricing.total</comment>
        <translation>该时段共 %1 %2</translation>
    </message>
    <message>
        <source>%1 %2 for the interval (billed per %3)</source>
        <comment>cost.pricing.total_per</comment>
        <translation>该时段共 %1 %2（按 %3 计费）</translation>
    </message>
    <message>
        <source>%1 %2/%3 × %4, billed per started %5</source>
        <comment>cost.pricing.time</comment>
        <translation>%1 %2/%3 × %4，不足 %5 按 %5 计费</translation>
    </message>
    <message>
        <source>%1 %2/%3 × %4 %3(s), billed in steps of %5</source>
        <comment>cost.pricing.count</comment>
        <translation>%1 %2/%3 × %4 个 %3，按 %5 的步长计费</translation>
    </message>
    <message>
        <source>d</source>
        <comment>cost.unit.d</comment>
        <translation>天</translation>
    </message>
    <message>
        <source>h</source>
        <comment>cost.unit.h</comment>
        <translation>小时</translation>
    </message>
    <message>
        <source>min</source>
        <comment>cost.unit.min</comment>
        <translation>分钟</translation>
    </message>
    <message>
        <source>second</source>
        <comment>cost.unit.second</comment>
        <translation>秒</translation>
    </message>
    <message>
        <source>minute</source>
        <comment>cost.unit.minute</comment>
        <translation>分钟</translation>
    </message>
    <message>
        <source>hour</source>
        <comment>cost.unit.hour</comment>
        <translation>小时</translation>
    </message>
    <message>
        <source>month</source>
        <comment>cost.unit.month</comment>
        <translation>月</translation>
    </message>
    <message>
        <source>request</source>
        <comment>cost.unit.request</comment>
        <translation>请求</translation>
    </message>
    <message>
        <source>token</source>
        <comment>cost.unit.token</comment>
        <translation>token</translation>
    </message>
    <message>
        <source>request(s)</source>
        <comment>cost.unit.requests</comment>
        <translation>个请求</translation>
    </message>
    <message>
        <source>token(s)</source>
        <comment>cost.unit.tokens</comment>
        <translation>个 token</translation>
    </message>
    <message>
        <source>ServeBench run report: %1</source>
        <comment>report.title.run</comment>
        <translation>ServeBench 运行报告：%1</translation>
    </message>
    <message>
        <source>ServeBench comparison: %1</source>
        <comment>report.title.comparison</comment>
        <translation>ServeBench 比较：%1</translation>
    </message>
    <message>
        <source>en</source>
        <comment>report.html_lang</comment>
        <translation>zh-CN</translation>
    </message>
    <message>
        <source>Generated %1 by ServeBench %2 from project %3.</source>
        <comment>report.generated</comment>
        <translation>由 ServeBench %2 于 %1 根据项目 %3 生成。</translation>
    </message>
    <message>
        <source>Sections: summary verdict · comparability · results and charts · configuration and SUT manifests · failures · MLPerf validity · cost · metric definitions</source>
        <comment>report.sections</comment>
        <translation>章节：总结论 · 可比性 · 结果与图表 · 配置与 SUT 清单 · 失败 · MLPerf 有效性 · 成本 · 指标定义</translation>
    </message>
    <message>
        <source>Summary verdict</source>
        <comment>report.section.summary</comment>
        <translation>总结论</translation>
    </message>
    <message>
        <source>Comparability</source>
        <comment>report.section.comparability</comment>
        <translation>可比性</translation>
    </message>
    <message>
        <source>Results</source>
        <comment>report.section.results</comment>
        <translation>结果</translation>
    </message>
    <message>
        <source>Run %1: configuration and SUT manifest</source>
        <comment>report.section.run</comment>
        <translation>运行 %1：配置与 SUT 清单</translation>
    </message>
    <message>
        <source>Failures</source>
        <comment>report.section.failures</comment>
        <translation>失败</translation>
    </message>
    <message>
        <source>MLPerf validity</source>
        <comment>report.section.mlperf</comment>
        <translation>MLPerf 有效性</translation>
    </message>
    <message>
        <source>Cost and bill mapping</source>
        <comment>report.section.cost</comment>
        <translation>成本与账单对应</translation>
    </message>
    <message>
        <source>Metric definitions</source>
        <comment>report.section.definitions</comment>
        <translation>指标定义</translation>
    </message>
    <message>
        <source>run</source>
        <comment>report.col.run</comment>
        <translation>运行</translation>
    </message>
    <message>
        <source>status</source>
        <comment>report.col.status</comment>
        <translation>状态</translation>
    </message>
    <message>
        <source>successful</source>
        <comment>report.col.successful</comment>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <comment>report.col.failed</comment>
        <translation>失败</translation>
    </message>
    <message>
        <source>output tok/s</source>
        <comment>report.col.output_tps</comment>
        <translation>输出 tok/s</translation>
    </message>
    <message>
        <source>%1 is %2: only the requests that finished are counted.</source>
        <comment>report.partial</comment>
        <translation>%1 的状态为 %2：只统计已完成的请求。</translation>
    </message>
    <message>
        <source>Highlighted rows differ; blue cells are unknown for that run. Workload settings must match for a fair comparison; SUT settings are what is compared (change one thing at a time).</source>
        <comment>report.comparability.legend</comment>
        <translation>高亮的行存在差异；蓝色单元格表示该运行中此项未知。工作负载设置必须一致，比较才公平；SUT 设置是被比较的对象（每次只改变一项）。</translation>
    </message>
    <message>
        <source>setting</source>
        <comment>report.col.setting</comment>
        <translation>设置</translation>
    </message>
    <message>
        <source>role</source>
        <comment>report.col.role</comment>
        <translation>角色</translation>
    </message>
    <message>
        <source>workload — must match to rank</source>
        <comment>report.role.blocker</comment>
        <translation>工作负载——必须一致才能排名</translation>
    </message>
    <message>
        <source>Latencies in milliseconds from the monotonic clock; percentiles by linear interpolation between order statistics (numpy&apos;s default, as vLLM). Failed requests are excluded from latencies and throughput numerators and listed under Failures. Differences are against the baseline column %1.</source>
        <comment>report.results.legend</comment>
        <translation>延迟单位为ms，取自单调时钟；百分位数在顺序统计量之间线性插值（numpy 的默认方法，与 vLLM 相同）。失败的请求不计入延迟和吞吐量的分子，列在“失败”一节中。差异均相对于基线列 %1。</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <comment>report.col.baseline</comment>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>Charts</source>
        <comment>report.charts</comment>
        <translation>图表</translation>
    </message>
    <message>
        <source>chart not rendered; the percentiles above carry the distribution</source>
        <comment>report.chart_not_rendered</comment>
        <translation>未绘制图表；上面的百分位数反映了分布</translation>
    </message>
    <message>
        <source>run id</source>
        <comment>report.row.run_id</comment>
        <translation>运行 id</translation>
    </message>
    <message>
        <source>name</source>
        <comment>report.row.name</comment>
        <translation>名称</translation>
    </message>
    <message>
        <source>started (UTC)</source>
        <comment>report.row.started</comment>
        <translation>开始（UTC）</translation>
    </message>
    <message>
        <source>ended (UTC)</source>
        <comment>report.row.ended</comment>
        <translation>结束（UTC）</translation>
    </message>
    <message>
        <source>host</source>
        <comment>report.row.host</comment>
        <translation>主机</translation>
    </message>
    <message>
        <source>metric definitions version</source>
        <comment>report.row.definitions_version</comment>
        <translation>指标定义版本</translation>
    </message>
    <message>
        <source>transport</source>
        <comment>report.row.transport</comment>
        <translation>传输</translation>
    </message>
    <message>
        <source>records</source>
        <comment>report.row.records</comment>
        <translation>记录数</translation>
    </message>
    <message>
        <source>dataset hash</source>
        <comment>report.row.dataset_hash</comment>
        <translation>数据集哈希</translation>
    </message>
    <message>
        <source>dataset version</source>
        <comment>report.row.dataset_version</comment>
        <translation>数据集版本</translation>
    </message>
    <message>
        <source>command</source>
        <comment>report.row.command</comment>
        <translation>命令</translation>
    </message>
    <message>
        <source>not recorded</source>
        <comment>report.not_recorded</comment>
        <translation>未记录</translation>
    </message>
    <message>
        <source>SUT manifest</source>
        <comment>report.sut_manifest</comment>
        <translation>SUT 清单</translation>
    </message>
    <message>
        <source>replicas / containers / workers per container</source>
        <comment>report.row.topology</comment>
        <translation>副本 / 容器 / 每容器工作进程</translation>
    </message>
    <message>
        <source>notes</source>
        <comment>report.row.notes</comment>
        <translation>备注</translation>
    </message>
    <message>
        <source>API key</source>
        <comment>report.row.api_key</comment>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>reference only: %1</source>
        <comment>report.api_key_ref</comment>
        <translation>仅引用：%1</translation>
    </message>
    <message>
        <source>Frozen snapshot</source>
        <comment>report.snapshot</comment>
        <translation>冻结快照</translation>
    </message>
    <message>
        <source>No failed requests.</source>
        <comment>report.no_failures</comment>
        <translation>没有失败的请求。</translation>
    </message>
    <message>
        <source>error class</source>
        <comment>report.col.error_class</comment>
        <translation>错误类别</translation>
    </message>
    <message>
        <source>requests</source>
        <comment>report.col.requests</comment>
        <translation>请求数</translation>
    </message>
    <message>
        <source>The individual failed requests are not available (imported summary only).</source>
        <comment>report.failures_summary_only</comment>
        <translation>没有逐个失败请求的信息（导入的仅为摘要）。</translation>
    </message>
    <message>
        <source>class</source>
        <comment>report.col.class</comment>
        <translation>类别</translation>
    </message>
    <message>
        <source>index</source>
        <comment>report.col.index</comment>
        <translation>序号</translation>
    </message>
    <message>
        <source>warm-up</source>
        <comment>report.col.warmup</comment>
        <translation>预热</translation>
    </message>
    <message>
        <source>request id</source>
        <comment>report.col.request_id</comment>
        <translation>请求 id</translation>
    </message>
    <message>
        <source>message</source>
        <comment>report.col.message</comment>
        <translation>消息</translation>
    </message>
    <message>
        <source>yes</source>
        <comment>report.yes</comment>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <comment>report.no</comment>
        <translation>否</translation>
    </message>
    <message>
        <source>Not judged: %1</source>
        <comment>report.not_judged</comment>
        <translation>未判定：%1</translation>
    </message>
    <message>
        <source>no per-request results.</source>
        <comment>report.no_records</comment>
        <translation>没有逐请求结果。</translation>
    </message>
    <message>
        <source>No test window holds these runs: unit costs are not available (never zero).</source>
        <comment>report.cost.none</comment>
        <translation>没有测试窗口包含这些运行：单位成本不可用（绝不记为零）。</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <comment>report.cost.not_available</comment>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <source>%1 — test window “%2”</source>
        <comment>report.cost.window</comment>
        <translation>%1——测试窗口“%2”</translation>
    </message>
    <message>
        <source>The run also lies in: %1 (not used here).</source>
        <comment>report.cost.other_windows</comment>
        <translation>该运行也位于：%1（此处未使用）。</translation>
    </message>
    <message>
        <source>Same window as above.</source>
        <comment>report.cost.same_window</comment>
        <translation>与上面的窗口相同。</translation>
    </message>
    <message>
        <source>item</source>
        <comment>report.col.item</comment>
        <translation>项目</translation>
    </message>
    <message>
        <source>category</source>
        <comment>report.col.category</comment>
        <translation>类别</translation>
    </message>
    <message>
        <source>provider</source>
        <comment>report.col.provider</comment>
        <translation>提供商</translation>
    </message>
    <message>
        <source>resource</source>
        <comment>report.col.resource</comment>
        <translation>资源</translation>
    </message>
    <message>
        <source>start</source>
        <comment>report.col.start</comment>
        <translation>开始</translation>
    </message>
    <message>
        <source>end</source>
        <comment>report.col.end</comment>
        <translation>结束</translation>
    </message>
    <message>
        <source>pricing</source>
        <comment>report.col.pricing</comment>
        <translation>计价</translation>
    </message>
    <message>
        <source>item total</source>
        <comment>report.col.item_total</comment>
        <translation>项目总额</translation>
    </message>
    <message>
        <source>mapping</source>
        <comment>report.col.mapping</comment>
        <translation>归属</translation>
    </message>
    <message>
        <source>counted</source>
        <comment>report.col.counted</comment>
        <translation>计入</translation>
    </message>
    <message>
        <source>why</source>
        <comment>report.col.why</comment>
        <translation>原因</translation>
    </message>
    <message>
        <source>source</source>
        <comment>report.col.source</comment>
        <translation>来源</translation>
    </message>
    <message>
        <source>Definitions version %1.</source>
        <comment>report.definitions_version</comment>
        <translation>定义版本 %1。</translation>
    </message>
    <message>
        <source>unit</source>
        <comment>report.col.unit</comment>
        <translation>单位</translation>
    </message>
    <message>
        <source>definition</source>
        <comment>report.col.definition</comment>
        <translation>定义</translation>
    </message>
    <message>
        <source>how ServeBench applies it</source>
        <comment>report.col.applies</comment>
        <translation>ServeBench 的具体应用方式</translation>
    </message>
    <message>
        <source>response too large</source>
        <comment>error_class.oversize</comment>
        <translation>响应过大</translation>
    </message>
    <message>
        <source>must be a fraction from 0 to below 1, e.g. 0.1</source>
        <comment>plan.max_error_rate.range</comment>
        <translation>必须是从 0 到小于 1 的比例，例如 0.1</translation>
    </message>
    <message>
        <source>must be at least 5 seconds</source>
        <comment>plan.saturation_window.range</comment>
        <translation>必须至少为 5 秒</translation>
    </message>
    <message>
        <source>repeats one plan: it cannot be combined with a sweep or a rate search</source>
        <comment>plan.num_runs.single</comment>
        <translation>用于重复同一方案：不能与扫描或速率搜索同时使用</translation>
    </message>
    <message>
        <source>the run has no request records</source>
        <comment>na.no_records</comment>
        <translation>运行没有请求记录</translation>
    </message>
    <message>
        <source>no request was sent</source>
        <comment>na.none_sent</comment>
        <translation>没有发送任何请求</translation>
    </message>
    <message>
        <source>no goodput SLO was given (--goodput)</source>
        <comment>na.no_goodput_slo</comment>
        <translation>未设定有效吞吐量 SLO（--goodput）</translation>
    </message>
    <message>
        <source>every request has the same send time: the records carry no real send times</source>
        <comment>na.one_instant</comment>
        <translation>所有请求的发送时间相同：记录中没有真实的发送时间</translation>
    </message>
    <message>
        <source>fewer than two requests were sent</source>
        <comment>na.fewer_than_two</comment>
        <translation>发送的请求少于两个</translation>
    </message>
    <message>
        <source>no request succeeded</source>
        <comment>na.no_success</comment>
        <translation>没有请求成功</translation>
    </message>
    <message>
        <source>no successful request has both a send time and a first token</source>
        <comment>na.no_first_token</comment>
        <translation>没有成功请求同时具有发送时间和首个 token</translation>
    </message>
    <message>
        <source>no successful request produced more than one output token</source>
        <comment>na.one_token</comment>
        <translation>没有成功请求产生超过一个输出 token</translation>
    </message>
    <message>
        <source>no successful request streamed more than one chunk</source>
        <comment>na.one_chunk</comment>
        <translation>没有成功请求流式返回超过一个分块</translation>
    </message>
    <message>
        <source>no successful request has a scheduled time (t_sched)</source>
        <comment>na.no_sched_success</comment>
        <translation>没有成功请求具有计划时间（t_sched）</translation>
    </message>
    <message>
        <source>no request has a scheduled time (t_sched)</source>
        <comment>na.no_sched</comment>
        <translation>没有请求具有计划时间（t_sched）</translation>
    </message>
    <message>
        <source>no request recorded when it was queued (t_queued)</source>
        <comment>na.no_queued</comment>
        <translation>没有请求记录排队时间（t_queued）</translation>
    </message>
    <message>
        <source>%1 of %2 successful requests have no input token count (no usage from the server, no dataset length)</source>
        <comment>na.input_tokens_missing</comment>
        <translation>%2 个成功请求中有 %1 个没有输入 token 数（服务器未返回 usage，也没有数据集长度）</translation>
    </message>
    <message>
        <source>the server reported no cached prompt tokens (usage.prompt_tokens_details.cached_tokens)</source>
        <comment>na.no_cached_tokens</comment>
        <translation>服务器未报告缓存的提示 token（usage.prompt_tokens_details.cached_tokens）</translation>
    </message>
    <message>
        <source>imported from vLLM, whose file has no send times</source>
        <comment>na.vllm_no_send_times</comment>
        <translation>从 vLLM 导入，其文件没有发送时间</translation>
    </message>
    <message>
        <source>imported from vLLM&apos;s summary, which does not record it</source>
        <comment>na.vllm_summary</comment>
        <translation>从 vLLM 的汇总导入，其中未记录此项</translation>
    </message>
    <message>
        <source>vLLM&apos;s result file does not record cached prompt tokens</source>
        <comment>na.vllm_no_cached</comment>
        <translation>vLLM 的结果文件未记录缓存的提示 token</translation>
    </message>
    <message>
        <source>%1 sessions</source>
        <comment>cmp.value.sessions</comment>
        <translation>%1 个会话</translation>
    </message>
    <message>
        <source>single requests</source>
        <comment>cmp.value.single_requests</comment>
        <translation>单次请求</translation>
    </message>
    <message>
        <source>synthetic sessions</source>
        <comment>cmp.value.synthetic_sessions</comment>
        <translation>合成会话</translation>
    </message>
    <message>
        <source>%1 sessions</source>
        <comment>cmp.value.kind_sessions</comment>
        <translation>%1 会话</translation>
    </message>
    <message>
        <source>n/a (single requests)</source>
        <comment>cmp.value.na_single_requests</comment>
        <translation>不适用（单次请求）</translation>
    </message>
    <message>
        <source>served answers</source>
        <comment>cmp.value.served_answers</comment>
        <translation>服务器返回的回答</translation>
    </message>
    <message>
        <source>reference answers</source>
        <comment>cmp.value.reference_answers</comment>
        <translation>参考回答</translation>
    </message>
    <message>
        <source>fixed %1 ms</source>
        <comment>cmp.value.think_fixed</comment>
        <translation>固定 %1 ms</translation>
    </message>
    <message>
        <source>exponential, mean %1 ms</source>
        <comment>cmp.value.think_exponential</comment>
        <translation>指数分布，均值 %1 ms</translation>
    </message>
    <message>
        <source>from the dataset</source>
        <comment>cmp.value.think_dataset</comment>
        <translation>来自数据集</translation>
    </message>
    <message>
        <source>workload (single requests or sessions)</source>
        <comment>cmp.field.workload_shape</comment>
        <translation>负载形态（单次请求或会话）</translation>
    </message>
    <message>
        <source>session history</source>
        <comment>cmp.field.session_history</comment>
        <translation>会话历史</translation>
    </message>
    <message>
        <source>think time</source>
        <comment>cmp.field.think_time</comment>
        <translation>思考时间</translation>
    </message>
    <message>
        <source>the runs&apos; workloads differ in %1 (%2). Session runs compare only with session runs of the same source, history mode and think-time model: each turn&apos;s history and timing change what the server caches.</source>
        <comment>cmp.refusal.session</comment>
        <translation>这些运行的负载在%1上不同（%2）。会话运行只能与来源、历史模式和思考时间模型都相同的会话运行比较：每一轮的历史和时间都会改变服务器缓存的内容。</translation>
    </message>
    <message>
        <source>Sessions</source>
        <comment>report.sessions.title</comment>
        <translation>会话</translation>
    </message>
    <message>
        <source>sessions (completed / failed / incomplete)</source>
        <comment>report.sessions.sessions</comment>
        <translation>会话（完成 / 失败 / 未完成）</translation>
    </message>
    <message>
        <source>turns (sent / failed / not sent)</source>
        <comment>report.sessions.turns</comment>
        <translation>轮次（已发送 / 失败 / 未发送）</translation>
    </message>
    <message>
        <source>history</source>
        <comment>report.sessions.history</comment>
        <translation>历史</translation>
    </message>
    <message>
        <source>think time (model; configured / measured mean, ms)</source>
        <comment>report.sessions.think</comment>
        <translation>思考时间（模型；配置 / 实测均值，ms）</translation>
    </message>
    <message>
        <source>mean session duration (s)</source>
        <comment>report.sessions.duration</comment>
        <translation>平均会话时长（秒）</translation>
    </message>
    <message>
        <source>input tokens (new / history / cached)</source>
        <comment>report.sessions.tokens</comment>
        <translation>输入 token（新增 / 历史 / 缓存）</translation>
    </message>
    <message>
        <source>prefix-cache hit rate</source>
        <comment>report.sessions.hit_rate</comment>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <source>active sessions (peak / mean)</source>
        <comment>report.sessions.active</comment>
        <translation>活跃会话（峰值 / 均值）</translation>
    </message>
    <message>
        <source>not reported</source>
        <comment>report.sessions.not_reported</comment>
        <translation>未报告</translation>
    </message>
    <message>
        <source>turn</source>
        <comment>report.sessions.col.turn</comment>
        <translation>轮次</translation>
    </message>
    <message>
        <source>ok / sent</source>
        <comment>report.sessions.col.ok</comment>
        <translation>成功 / 已发送</translation>
    </message>
    <message>
        <source>mean TTFT (ms)</source>
        <comment>report.sessions.col.ttft</comment>
        <translation>平均 TTFT（ms）</translation>
    </message>
    <message>
        <source>p99 TTFT (ms)</source>
        <comment>report.sessions.col.ttft_p99</comment>
        <translation>p99 TTFT（ms）</translation>
    </message>
    <message>
        <source>mean ITL (ms)</source>
        <comment>report.sessions.col.itl</comment>
        <translation>平均 ITL（ms）</translation>
    </message>
    <message>
        <source>mean E2EL (ms)</source>
        <comment>report.sessions.col.e2el</comment>
        <translation>平均 E2EL（ms）</translation>
    </message>
    <message>
        <source>mean input</source>
        <comment>report.sessions.col.input</comment>
        <translation>平均输入</translation>
    </message>
    <message>
        <source>mean history</source>
        <comment>report.sessions.col.history</comment>
        <translation>平均历史</translation>
    </message>
    <message>
        <source>hit rate</source>
        <comment>report.sessions.col.hit_rate</comment>
        <translation>命中率</translation>
    </message>
    <message>
        <source>must be none for a session workload: MLPerf scenarios are single-request (each query stands alone), so a multi-turn run cannot be judged as one</source>
        <comment>plan.sessions.mlperf</comment>
        <translation>对会话负载必须为 none：MLPerf 场景是单次请求（每个查询彼此独立），多轮运行无法作为一个场景判定</translation>
    </message>
    <message>
        <source>does not apply to a session workload: sweeps and rate searches vary a request rate, and sessions arrive at a session rate</source>
        <comment>plan.sessions.search</comment>
        <translation>不适用于会话负载：扫描和速率搜索改变的是请求速率，而会话按会话速率到达</translation>
    </message>
    <message>
        <source>cannot replay sessions: a trace&apos;s rows are single requests at their own times (leave out --multi-turn)</source>
        <comment>plan.sessions.trace</comment>
        <translation>无法回放会话：轨迹的每一行都是按各自时间发送的单次请求（请去掉 --multi-turn）</translation>
    </message>
    <message>
        <source>does not apply to a session workload</source>
        <comment>plan.sessions.ramp</comment>
        <translation>不适用于会话负载</translation>
    </message>
    <message>
        <source>applies to single requests: sessions arrive at --session-rate (sessions per second) or run as --users concurrent users</source>
        <comment>plan.sessions.request_rate</comment>
        <translation>只适用于单次请求：会话按 --session-rate（每秒会话数）到达，或以 --users 个并发用户运行</translation>
    </message>
    <message>
        <source>counts single requests: a session workload runs --num-sessions sessions (or starts sessions until --duration ends)</source>
        <comment>plan.sessions.num_prompts</comment>
        <translation>只计单次请求：会话负载运行 --num-sessions 个会话（或在 --duration 结束前持续开始会话）</translation>
    </message>
    <message>
        <source>keeps requests in flight: a closed loop of sessions is --users (each user runs one session after another)</source>
        <comment>plan.sessions.concurrency</comment>
        <translation>保持一定数量的请求在途：会话的闭环用 --users（每个用户依次运行会话）</translation>
    </message>
    <message>
        <source>is not supported for sessions: every turn of every session is measured</source>
        <comment>plan.sessions.warmup</comment>
        <translation>不支持会话：每个会话的每一轮都会被测量</translation>
    </message>
    <message>
        <source>does not split a session workload between agents</source>
        <comment>plan.sessions.shard</comment>
        <translation>不能把会话负载拆分给多个代理</translation>
    </message>
    <message>
        <source>and a session rate exclude each other: choose a closed loop of users or an open loop of arriving sessions, not both</source>
        <comment>plan.sessions.users_and_rate</comment>
        <translation>与会话速率互斥：请选择用户闭环或会话到达的开环，不能同时使用</translation>
    </message>
    <message>
        <source>with sessions all starting at once needs a finite --session-rate or --users</source>
        <comment>plan.sessions.duration</comment>
        <translation>在所有会话同时开始时，需要有限的 --session-rate 或 --users</translation>
    </message>
    <message>
        <source>must be between 1 and %1 turns</source>
        <comment>plan.sessions.turns</comment>
        <translation>必须在 1 到 %1 轮之间</translation>
    </message>
    <message>
        <source>must be between 0 (all) and %1 turns</source>
        <comment>plan.sessions.max_turns</comment>
        <translation>必须在 0（全部）到 %1 轮之间</translation>
    </message>
    <message>
        <source>must be between 0 and %1 milliseconds</source>
        <comment>plan.think_time.range</comment>
        <translation>必须在 0 到 %1 ms之间</translation>
    </message>
    <message>
        <source>must be above 0: it is the mean of the exponential think time</source>
        <comment>plan.think_time.mean</comment>
        <translation>必须大于 0：它是指数分布思考时间的均值</translation>
    </message>
    <message>
        <source>cannot be taken from a %1 dataset: only custom JSONL sessions give think times (think_time_ms on a user message)</source>
        <comment>plan.think_time.dataset</comment>
        <translation>无法取自 %1 数据集：只有自定义 JSONL 会话提供思考时间（用户消息上的 think_time_ms）</translation>
    </message>
    <message>
        <source>applies only to session workloads (--multi-turn); this plan sends single requests</source>
        <comment>plan.sessions.not_sessions</comment>
        <translation>只适用于会话负载（--multi-turn）；此方案发送的是单次请求</translation>
    </message>
    <message>
        <source>configures the built-in simulator: give no endpoint to run against it</source>
        <comment>plan.sim.not_builtin</comment>
        <translation>用于配置内置模拟器：不指定端点即可在其上运行</translation>
    </message>
    <message>
        <source>must be between 0 and %1 milliseconds per token</source>
        <comment>plan.sim.prefill</comment>
        <translation>必须在每 token 0 到 %1 ms之间</translation>
    </message>
    <message>
        <source>must be between 0 and %1 blocks</source>
        <comment>plan.sim.cache_blocks</comment>
        <translation>必须在 0 到 %1 个块之间</translation>
    </message>
    <message>
        <source>Turn</source>
        <comment>metric.session.turn.label</comment>
        <translation>轮次</translation>
    </message>
    <message>
        <source>The position of a request in its session: turn 1 is the session&apos;s first request.</source>
        <comment>metric.session.turn.definition</comment>
        <translation>请求在其会话中的位置：第 1 轮是会话的第一个请求。</translation>
    </message>
    <message>
        <source>Per-turn latencies use the run&apos;s definitions (TTFT, TPOT, ITL, E2EL) over the successful requests of that turn only.</source>
        <comment>metric.session.turn.detail</comment>
        <translation>每轮的延迟使用本次运行的定义（TTFT、TPOT、ITL、E2EL），只计该轮的成功请求。</translation>
    </message>
    <message>
        <source>New input tokens</source>
        <comment>metric.session.new_input_tokens.label</comment>
        <translation>新增输入 token</translation>
    </message>
    <message>
        <source>The tokens of a turn&apos;s new user message: what the turn adds to its conversation.</source>
        <comment>metric.session.new_input_tokens.definition</comment>
        <translation>一轮新增的用户消息的 token 数：这一轮为对话增加的内容。</translation>
    </message>
    <message>
        <source>The client&apos;s count (the dataset&apos;s token count; for a synthetic session the drawn length), at most the turn&apos;s input tokens. Summed over a session, new input tokens count each user message once, where input tokens count the history again on every turn.</source>
        <comment>metric.session.new_input_tokens.detail</comment>
        <translation>客户端的计数（数据集的 token 数；合成会话为抽取的长度），至多为该轮的输入 token 数。按会话求和时，新增输入 token 每条用户消息只计一次，而输入 token 会在每一轮重复计入历史。</translation>
    </message>
    <message>
        <source>History tokens</source>
        <comment>metric.session.history_tokens.label</comment>
        <translation>历史 token</translation>
    </message>
    <message>
        <source>A turn&apos;s input tokens minus its new input tokens: the system prompt, the earlier user messages and the earlier answers it resends (with the chat template&apos;s tokens when the server counts them).</source>
        <comment>metric.session.history_tokens.definition</comment>
        <translation>一轮的输入 token 减去其新增输入 token：它重新发送的系统提示、之前的用户消息和之前的回答（服务器计数时还包括对话模板的 token）。</translation>
    </message>
    <message>
        <source>Input tokens are the server&apos;s usage when reported, else the client&apos;s count, so new + history = input.</source>
        <comment>metric.session.history_tokens.detail</comment>
        <translation>输入 token 在服务器报告 usage 时取其值，否则取客户端计数，因此 新增 + 历史 = 输入。</translation>
    </message>
    <message>
        <source>Prefix-cache hit rate</source>
        <comment>metric.session.cache_hit_rate.label</comment>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <source>Cached tokens over input tokens, summed over the successful requests whose usage reports prompt_tokens_details.cached_tokens.</source>
        <comment>metric.session.cache_hit_rate.definition</comment>
        <translation>缓存 token 数除以输入 token 数，在 usage 报告 prompt_tokens_details.cached_tokens 的成功请求上求和。</translation>
    </message>
    <message>
        <source>Not reported when no request reports cached tokens.</source>
        <comment>metric.session.cache_hit_rate.detail</comment>
        <translation>没有请求报告缓存 token 时为未报告。</translation>
    </message>
    <message>
        <source>Session duration</source>
        <comment>metric.session.session_duration.label</comment>
        <translation>会话时长</translation>
    </message>
    <message>
        <source>From a completed session&apos;s first send to its last turn&apos;s end, think times included.</source>
        <comment>metric.session.session_duration.definition</comment>
        <translation>已完成会话从第一次发送到最后一轮结束的时间，包括思考时间。</translation>
    </message>
    <message>
        <source>Completed sessions only: every planned turn sent and successful.</source>
        <comment>metric.session.session_duration.detail</comment>
        <translation>只计已完成的会话：每个计划的轮次都已发送并成功。</translation>
    </message>
    <message>
        <source>Think time</source>
        <comment>metric.session.think_time.label</comment>
        <translation>思考时间</translation>
    </message>
    <message>
        <source>Configured: the pause drawn before a turn. Measured: from the previous turn&apos;s end (its stream finished) to this turn&apos;s send. Excess: measured minus configured.</source>
        <comment>metric.session.think_time.definition</comment>
        <translation>配置值：某轮之前抽取的停顿。实测值：从上一轮结束（其流结束）到本轮发送。超出：实测值减去配置值。</translation>
    </message>
    <message>
        <source>Turns 2 and later whose previous turn has a record.</source>
        <comment>metric.session.think_time.detail</comment>
        <translation>第 2 轮及之后、且上一轮有记录的轮次。</translation>
    </message>
    <message>
        <source>Active sessions</source>
        <comment>metric.session.active_sessions.label</comment>
        <translation>活跃会话</translation>
    </message>
    <message>
        <source>Sessions between their first turn&apos;s scheduled time and their last record&apos;s end; peak and time-weighted mean over the run.</source>
        <comment>metric.session.active_sessions.definition</comment>
        <translation>从会话第一轮的计划时间到其最后一条记录结束之间的会话；取整个运行中的峰值和按时间加权的均值。</translation>
    </message>
    <message>
        <source>Sessions that pile up (open loop, a slow server) show as a rising count.</source>
        <comment>metric.session.active_sessions.detail</comment>
        <translation>会话堆积时（开环、服务器较慢）表现为计数上升。</translation>
    </message>
    <message>
        <source>Failed sessions</source>
        <comment>metric.session.sessions_failed.label</comment>
        <translation>失败的会话</translation>
    </message>
    <message>
        <source>Sessions with a failed turn; a failed turn ends its session, so its later turns are counted as not sent.</source>
        <comment>metric.session.sessions_failed.definition</comment>
        <translation>有失败轮次的会话；失败的轮次会结束其会话，因此其后的轮次计为未发送。</translation>
    </message>
    <message>
        <source>A request cancelled by a stop makes its session incomplete, not failed.</source>
        <comment>metric.session.sessions_failed.detail</comment>
        <translation>因停止而取消的请求使其会话未完成，而不是失败。</translation>
    </message>
    <message>
        <source>must be between 1 and %1</source>
        <comment>plan.num_runs.range</comment>
        <translation>必须在 1 到 %1 之间</translation>
    </message>
    <message>
        <source>must be warm, per-request or lazy, got &apos;%1&apos;</source>
        <comment>plan.connection_mode.name</comment>
        <translation>必须是 warm、per-request 或 lazy，实际为“%1”</translation>
    </message>
    <message>
        <source>must be 0 (none) or more than 0 and at most %1 seconds</source>
        <comment>plan.idle_timeout.range</comment>
        <translation>必须为 0（不限），或大于 0 且不超过 %1 秒</translation>
    </message>
    <message>
        <source>must be 0 (no cap) or between %1 and %2 bytes</source>
        <comment>plan.response_cap.range</comment>
        <translation>必须为 0（不设上限），或在 %1 到 %2 字节之间</translation>
    </message>
    <message>
        <source>better</source>
        <comment>sig.verdict.better</comment>
        <translation>更好</translation>
    </message>
    <message>
        <source>worse</source>
        <comment>sig.verdict.worse</comment>
        <translation>更差</translation>
    </message>
    <message>
        <source>no detectable difference at %1</source>
        <comment>sig.verdict.none</comment>
        <translation>在 %1 下无可检测的差异</translation>
    </message>
    <message>
        <source>not available</source>
        <comment>sig.verdict.na</comment>
        <translation>不可用</translation>
    </message>
    <message>
        <source>series %1 (%2 runs)</source>
        <comment>sig.candidate.series</comment>
        <translation>系列 %1（%2 次运行）</translation>
    </message>
    <message>
        <source>not testable from one run: a run gives one value and no spread within it; repeat the runs (--num-runs) on both sides to test it</source>
        <comment>sig.note.one_run</comment>
        <translation>无法从单次运行检验：一次运行只给出一个值，没有内部离散度；请在两边重复运行（--num-runs）以进行检验</translation>
    </message>
    <message>
        <source>not testable: one side is a series of runs, the other a single run (compare series with series over runs, or single runs per request)</source>
        <comment>sig.note.mixed</comment>
        <translation>无法检验：一方是多次运行的系列，另一方是单次运行（系列与系列按运行比较，单次运行按请求比较）</translation>
    </message>
    <message>
        <source>not testable: %1 has no per-request results</source>
        <comment>sig.note.no_records</comment>
        <translation>无法检验：%1 没有逐请求结果</translation>
    </message>
    <message>
        <source>no interval: a test window&apos;s cost is one number, not a sample</source>
        <comment>sig.note.cost</comment>
        <translation>无区间：一个测试窗口的成本是一个数，不是样本</translation>
    </message>
    <message>
        <source>no value on one side</source>
        <comment>sig.note.no_value</comment>
        <translation>一方没有值</translation>
    </message>
    <message>
        <source>not tested: %1 inter-token gaps are too many for the clustered bootstrap; TPOT, one value per request, is tested</source>
        <comment>sig.note.itl_too_large</comment>
        <translation>未检验：%1 个 token 间隔对聚类自助法来说太多；已检验每个请求一个值的 TPOT</translation>
    </message>
    <message>
        <source>about %1 %2 per side would detect a %3 difference (%4 confidence, %5 power)</source>
        <comment>sig.hint</comment>
        <translation>每方约 %1 个%2 可检测到 %3 的差异（置信度 %4，检验力 %5）</translation>
    </message>
    <message>
        <source>no estimate of the %1 needed to detect a %2 difference: %3</source>
        <comment>sig.hint.none</comment>
        <translation>无法估计检测 %2 差异所需的%1：%3</translation>
    </message>
    <message>
        <source>requests</source>
        <comment>sig.unit.requests</comment>
        <translation>请求</translation>
    </message>
    <message>
        <source>requests (clustered)</source>
        <comment>sig.unit.clustered</comment>
        <translation>请求（聚类）</translation>
    </message>
    <message>
        <source>runs</source>
        <comment>sig.unit.runs</comment>
        <translation>运行</translation>
    </message>
    <message>
        <source>pooled values</source>
        <comment>sig.unit.pooled</comment>
        <translation>合并值</translation>
    </message>
    <message>
        <source>the comparison has no variance estimate</source>
        <comment>sig.hint.no_variance</comment>
        <translation>该比较没有方差估计</translation>
    </message>
    <message>
        <source>the baseline estimate is 0, so a relative difference has no size</source>
        <comment>sig.hint.zero_baseline</comment>
        <translation>基线估计为 0，因此相对差异没有大小</translation>
    </message>
    <message>
        <source>neither side varies, so any difference is detected at once</source>
        <comment>sig.hint.no_spread</comment>
        <translation>两方都没有变化，因此任何差异都会立即被检测到</translation>
    </message>
    <message>
        <source>rank = 1 + the number of candidates significantly better (the pair&apos;s interval excludes 0); candidates the data cannot separate may share a rank</source>
        <comment>sig.rank.rule</comment>
        <translation>名次 = 1 + 显著更好的候选数（两者之差的区间不含 0）；数据无法区分的候选可以并列</translation>
    </message>
    <message>
        <source>Tied: the data cannot separate %1 by %2 at %3; a tied rank is shared</source>
        <comment>sig.rank.ties</comment>
        <translation>并列：数据无法按 %2 在 %3 下区分 %1；并列的名次共享</translation>
    </message>
    <message>
        <source>Every candidate is separated from the others by %1 at %2</source>
        <comment>sig.rank.separated</comment>
        <translation>每个候选都按 %1 在 %2 下与其他候选区分开</translation>
    </message>
    <message>
        <source>Statistical tests at %1: each candidate against the baseline %2 (difference [interval], relative difference [interval]: verdict)</source>
        <comment>sig.text.title</comment>
        <translation>%1 下的统计检验：每个候选对比基线 %2（差异 [区间]，相对差异 [区间]：结论）</translation>
    </message>
    <message>
        <source>%1: compared over runs (the mean of its runs, %2 interval); %3</source>
        <comment>sig.text.series</comment>
        <translation>%1：按运行比较（其各次运行的均值，%2 区间）；%3</translation>
    </message>
    <message>
        <source>hint: %1</source>
        <comment>sig.text.hint</comment>
        <translation>提示：%1</translation>
    </message>
    <message>
        <source>%1 (for the reason above)</source>
        <comment>sig.text.as_above</comment>
        <translation>%1（原因同上）</translation>
    </message>
    <message>
        <source>Ranking by %1 with ties (%2):</source>
        <comment>sig.text.ranking</comment>
        <translation>按 %1 排名（含并列，%2）：</translation>
    </message>
    <message>
        <source>tied with %1</source>
        <comment>sig.text.tied_with</comment>
        <translation>与 %1 并列</translation>
    </message>
    <message>
        <source>%1, pooled over its runs (the mean of the runs&apos; values, %2 interval from run-to-run variation):</source>
        <comment>sig.text.pooled</comment>
        <translation>%1，按其各次运行合并（各次运行数值的均值，%2 区间来自运行间波动）：</translation>
    </message>
    <message>
        <source>(%1 runs)</source>
        <comment>sig.text.pooled_runs</comment>
        <translation>（%1 次运行）</translation>
    </message>
    <message>
        <source>cache-busted: every request of every run has a new random prefix</source>
        <comment>sig.cache.busted</comment>
        <translation>已绕过缓存：每次运行的每个请求都有新的随机前缀</translation>
    </message>
    <message>
        <source>not cache-busted: runs after the first may hit the server&apos;s prefix cache</source>
        <comment>sig.cache.not_busted</comment>
        <translation>未绕过缓存：第一次之后的运行可能命中服务器的前缀缓存</translation>
    </message>
    <message>
        <source>cache state not recorded</source>
        <comment>sig.cache.unknown</comment>
        <translation>未记录缓存状态</translation>
    </message>
    <message>
        <source>%1: stopped early as over-saturated — %2</source>
        <comment>curve.saturated.stopped</comment>
        <translation>%1：因过饱和提前停止 — %2</translation>
    </message>
    <message>
        <source>%1: over-saturated, found in its records — %2</source>
        <comment>curve.saturated.detected</comment>
        <translation>%1：过饱和，从其记录中发现 — %2</translation>
    </message>
    <message>
        <source>Hollow points: runs that over-saturated the server; they measure the queue, not the server.</source>
        <comment>curve.saturated.legend</comment>
        <translation>空心点：使服务器过饱和的运行；它们测得的是队列，而不是服务器。</translation>
    </message>
    <message>
        <source>needs at least 2 %1 on each side (candidate %2, baseline %3)</source>
        <comment>sig.reason.few</comment>
        <translation>每方至少需要 2 个%1（候选 %2，基线 %3）</translation>
    </message>
    <message>
        <source>p%1 needs at least %2 %3 a side for a %4 interval (candidate %5, baseline %6)</source>
        <comment>sig.reason.percentile_few</comment>
        <translation>p%1 每方至少需要 %2 个%3 才能得到 %4 区间（候选 %5，基线 %6）</translation>
    </message>
    <message>
        <source>no distribution-free interval exists for %1</source>
        <comment>sig.reason.no_interval</comment>
        <translation>%1 不存在与分布无关的区间</translation>
    </message>
    <message>
        <source>needs at least 2 clusters a side</source>
        <comment>sig.reason.clusters</comment>
        <translation>每方至少需要 2 个聚类</translation>
    </message>
    <message>
        <source>the baseline mean is 0</source>
        <comment>sig.reason.zero_mean</comment>
        <translation>基线均值为 0</translation>
    </message>
    <message>
        <source>the baseline percentile is 0</source>
        <comment>sig.reason.zero_percentile</comment>
        <translation>基线百分位数为 0</translation>
    </message>
    <message>
        <source>the baseline percentile is 0 in some resample</source>
        <comment>sig.reason.zero_resample</comment>
        <translation>在某次重抽样中基线百分位数为 0</translation>
    </message>
    <message>
        <source>the interval is not finite</source>
        <comment>sig.reason.not_finite</comment>
        <translation>区间不是有限值</translation>
    </message>
    <message>
        <source>p%1 needs at least %2 samples for a distribution-free %3 interval (has %4)</source>
        <comment>ci.reason.percentile_few</comment>
        <translation>p%1 至少需要 %2 个样本才能得到与分布无关的 %3 区间（现有 %4 个）</translation>
    </message>
    <message>
        <source>no distribution-free interval exists for p%1</source>
        <comment>ci.reason.no_interval</comment>
        <translation>p%1 不存在与分布无关的区间</translation>
    </message>
    <message>
        <source>needs at least 2 samples for a standard deviation (has %1)</source>
        <comment>ci.reason.mean_few</comment>
        <translation>至少需要 2 个样本才能计算标准差（现有 %1 个）</translation>
    </message>
    <message>
        <source>needs at least 2 clusters (has %1)</source>
        <comment>ci.reason.clusters</comment>
        <translation>至少需要 2 个聚类（现有 %1 个）</translation>
    </message>
    <message>
        <source>needs at least 2 samples (has %1)</source>
        <comment>ci.reason.samples</comment>
        <translation>至少需要 2 个样本（现有 %1 个）</translation>
    </message>
    <message>
        <source>every request was sent at the same moment: there is no sending phase</source>
        <comment>steady.reason.one_moment</comment>
        <translation>所有请求都在同一时刻发送：没有发送阶段</translation>
    </message>
    <message>
        <source>the warm-up lasted until the last send: the run never reached a steady state (%1 s of sending, warm-up %2 s)</source>
        <comment>steady.reason.never</comment>
        <translation>预热一直持续到最后一次发送：运行从未达到稳态（发送 %1 秒，预热 %2 秒）</translation>
    </message>
    <message>
        <source>only %1 measured requests were sent in the steady window (at least %2 needed)</source>
        <comment>steady.reason.few</comment>
        <translation>稳态窗口内只发送了 %1 个被测请求（至少需要 %2 个）</translation>
    </message>
    <message>
        <source>first completion</source>
        <comment>steady.rule.completion</comment>
        <translation>首次完成</translation>
    </message>
    <message>
        <source>in flight first reached %1</source>
        <comment>steady.rule.level</comment>
        <translation>在途请求首次达到 %1</translation>
    </message>
    <message>
        <source>The decision on one page</source>
        <comment>report.p1.heading</comment>
        <translation>一页纸的结论</translation>
    </message>
    <message>
        <source>The question</source>
        <comment>report.p1.question</comment>
        <translation>问题</translation>
    </message>
    <message>
        <source>Do the candidates %1 differ, on the same workload, from the baseline %2?</source>
        <comment>report.p1.question_text</comment>
        <translation>在相同负载下，候选 %1 与基线 %2 是否有差异？</translation>
    </message>
    <message>
        <source>Code</source>
        <comment>report.p1.col.code</comment>
        <translation>代号</translation>
    </message>
    <message>
        <source>Candidate</source>
        <comment>report.p1.col.candidate</comment>
        <translation>候选</translation>
    </message>
    <message>
        <source>Runs</source>
        <comment>report.p1.col.runs</comment>
        <translation>运行</translation>
    </message>
    <message>
        <source>baseline</source>
        <comment>report.p1.baseline</comment>
        <translation>基线</translation>
    </message>
    <message>
        <source>differs, see below</source>
        <comment>report.p1.differs_below</comment>
        <translation>不同，见下文</translation>
    </message>
    <message>
        <source>Verdict per key metric (%1 intervals)</source>
        <comment>report.p1.verdicts</comment>
        <translation>各关键指标的结论（%1 区间）</translation>
    </message>
    <message>
        <source>Baseline %1</source>
        <comment>report.p1.col.baseline_value</comment>
        <translation>基线 %1</translation>
    </message>
    <message>
        <source>Value</source>
        <comment>report.p1.col.value</comment>
        <translation>值</translation>
    </message>
    <message>
        <source>Difference [%1 interval]</source>
        <comment>report.p1.col.difference</comment>
        <translation>差异 [%1 区间]</translation>
    </message>
    <message>
        <source>Verdict</source>
        <comment>report.p1.col.verdict</comment>
        <translation>结论</translation>
    </message>
    <message>
        <source>Ranking by %1 (ties within %2 share a rank): %3</source>
        <comment>report.p1.ranking</comment>
        <translation>按 %1 排名（在 %2 下无法区分者共享名次）：%3</translation>
    </message>
    <message>
        <source>Cost</source>
        <comment>report.p1.cost</comment>
        <translation>成本</translation>
    </message>
    <message>
        <source>Test window</source>
        <comment>report.p1.col.window</comment>
        <translation>测试窗口</translation>
    </message>
    <message>
        <source>%1 differs: %2</source>
        <comment>report.p1.differs</comment>
        <translation>%1 不同：%2</translation>
    </message>
    <message>
        <source>What was not comparable, not tested or not whole</source>
        <comment>report.p1.limits</comment>
        <translation>不可比较、未检验或不完整之处</translation>
    </message>
    <message>
        <source>Nothing: the runs are comparable and complete.</source>
        <comment>report.p1.nothing</comment>
        <translation>无：这些运行可以比较且完整。</translation>
    </message>
    <message>
        <source>Appendices: the details behind the first page. Runs are named by their codes in narrow tables; the legend on the first page gives their full names.</source>
        <comment>report.p1.appendices</comment>
        <translation>附录：第一页背后的细节。窄表格中的运行以代号表示；第一页的图例给出其全名。</translation>
    </message>
    <message>
        <source>Appendix: the runs at a glance</source>
        <comment>report.p1.appendix_runs</comment>
        <translation>附录：运行一览</translation>
    </message>
    <message>
        <source>needs %1 s of data before judging (has %2 s)</source>
        <comment>sat.reason.early</comment>
        <translation>判断前需要 %1 秒的数据（现有 %2 秒）</translation>
    </message>
    <message>
        <source>over-saturated: in flight +%1/s and median TTFT +%2 ms/s over %3 s while throughput did not grow</source>
        <comment>sat.reason.saturated</comment>
        <translation>过饱和：在 %3 秒内在途请求每秒 +%1、TTFT 中位数每秒 +%2 ms，而吞吐量没有增长</translation>
    </message>
    <message>
        <source>not saturated: requests in flight are not rising materially</source>
        <comment>sat.reason.in_flight</comment>
        <translation>未饱和：在途请求没有明显上升</translation>
    </message>
    <message>
        <source>not saturated: TTFT is not rising materially</source>
        <comment>sat.reason.ttft</comment>
        <translation>未饱和：TTFT 没有明显上升</translation>
    </message>
    <message>
        <source>not saturated: throughput is still growing</source>
        <comment>sat.reason.throughput</comment>
        <translation>未饱和：吞吐量仍在增长</translation>
    </message>
    <message>
        <source>No value on either side, so no verdict: %1</source>
        <comment>report.p1.no_values</comment>
        <translation>两方都没有值，因此没有结论：%1</translation>
    </message>
    <message>
        <source>Key metrics of the run (%1 intervals within it)</source>
        <comment>report.p1.key_metrics</comment>
        <translation>本次运行的关键指标（运行内的 %1 区间）</translation>
    </message>
    <message>
        <source>%1 interval</source>
        <comment>report.p1.col.interval</comment>
        <translation>%1 区间</translation>
    </message>
    <message>
        <source>omitted: %1</source>
        <comment>report.p1.omitted</comment>
        <translation>已省略：%1</translation>
    </message>
    <message>
        <source>tokenizer</source>
        <comment>token_source.tokenizer</comment>
        <translation>分词器</translation>
    </message>
    <message>
        <source>no successful request has both a send time and a content token</source>
        <comment>na.no_content_token</comment>
        <translation>没有成功的请求同时具有发送时间和内容 token</translation>
    </message>
    <message>
        <source>the records do not tell content from reasoning tokens (recorded without first-content times)</source>
        <comment>na.no_content_times</comment>
        <translation>记录无法区分内容 token 和推理 token（记录时没有首个内容 token 的时间）</translation>
    </message>
    <message>
        <source>no successful request streamed both reasoning and content</source>
        <comment>na.no_reasoning_phase</comment>
        <translation>没有成功的请求同时流式返回推理和内容</translation>
    </message>
    <message>
        <source>no successful request streamed reasoning or reported reasoning tokens</source>
        <comment>na.no_reasoning</comment>
        <translation>没有成功的请求流式返回推理或报告推理 token</translation>
    </message>
    <message>
        <source>no successful request has both the server&apos;s output count (usage) and the tokenizer&apos;s (--tokenizer)</source>
        <comment>na.no_count_comparison</comment>
        <translation>没有成功的请求同时具有服务器的输出计数（usage）和分词器的计数（--tokenizer）</translation>
    </message>
    <message>
        <source>TTFCT</source>
        <comment>metric.ttfct.label</comment>
        <translation>TTFCT</translation>
    </message>
    <message>
        <source>t_first_content − t_send</source>
        <comment>metric.ttfct.definition</comment>
        <translation>t_first_content − t_send</translation>
    </message>
    <message>
        <source>Time to first content token: the first chunk of the answer (delta.content, or the text of a completions request), after any reasoning; equals TTFT when the model does not reason. Successful measured requests only.</source>
        <comment>metric.ttfct.detail</comment>
        <translation>首个内容 token 时间：回答的第一个块（delta.content，或 completions 请求的文本），在任何推理之后；模型不推理时等于 TTFT。只计成功的计量请求。</translation>
    </message>
    <message>
        <source>Reasoning time</source>
        <comment>metric.reasoning_time.label</comment>
        <translation>推理时间</translation>
    </message>
    <message>
        <source>t_first_content − t_first_reasoning</source>
        <comment>metric.reasoning_time.definition</comment>
        <translation>t_first_content − t_first_reasoning</translation>
    </message>
    <message>
        <source>The reasoning phase: from the first reasoning delta (delta.reasoning_content or delta.reasoning) to the first content delta; successful measured requests that streamed both.</source>
        <comment>metric.reasoning_time.detail</comment>
        <translation>推理阶段：从第一个推理增量（delta.reasoning_content 或 delta.reasoning）到第一个内容增量；只计同时流式返回了两者的成功计量请求。</translation>
    </message>
    <message>
        <source>Reasoning tokens</source>
        <comment>metric.reasoning_tokens.label</comment>
        <translation>推理 token</translation>
    </message>
    <message>
        <source>usage.completion_tokens_details.reasoning_tokens, else the tokenizer&apos;s count of the reasoning text, else the reasoning chunks</source>
        <comment>metric.reasoning_tokens.definition</comment>
        <translation>usage.completion_tokens_details.reasoning_tokens，否则为分词器对推理文本的计数，再否则为推理块的数量</translation>
    </message>
    <message>
        <source>Per successful measured request that streamed reasoning (or whose server counted reasoning tokens); part of the output tokens. The source is recorded per request.</source>
        <comment>metric.reasoning_tokens.detail</comment>
        <translation>按每个流式返回了推理（或服务器统计了推理 token）的成功计量请求计；是输出 token 的一部分。每个请求都记录计数来源。</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <comment>cmp.group.reasoning</comment>
        <translation>推理</translation>
    </message>
    <message>
        <source>must be auto, off or an http:// or https:// URL, got &apos;%1&apos;</source>
        <comment>plan.metrics.sut</comment>
        <translation>必须是 auto、off 或 http:// / https:// URL，实际为 “%1”</translation>
    </message>
    <message>
        <source>must not hold a user name or password (it would be stored with the run and shown in reports)</source>
        <comment>plan.metrics.credentials</comment>
        <translation>不能包含用户名或密码（它会随运行保存并显示在报告中）</translation>
    </message>
    <message>
        <source>at most %1 targets</source>
        <comment>plan.metrics.too_many</comment>
        <translation>最多 %1 个目标</translation>
    </message>
    <message>
        <source>target &apos;%1&apos;: a name is 1 to 64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos; (it names the target&apos;s file in the acceptance bundle)</source>
        <comment>plan.metrics.target.name</comment>
        <translation>目标 “%1”：名称为 1 到 64 个字母、数字、“.”、“_” 或 “-”（它用作验收包中该目标文件的名称）</translation>
    </message>
    <message>
        <source>two targets are named &apos;%1&apos;</source>
        <comment>plan.metrics.target.duplicate</comment>
        <translation>有两个目标都名为 “%1”</translation>
    </message>
    <message>
        <source>target &apos;%1&apos;: the name is the SUT&apos;s own metrics endpoint&apos;s; choose another (two targets never share a name)</source>
        <comment>plan.metrics.target.reserved</comment>
        <translation>目标 “%1”：该名称属于 SUT 自身的指标端点；请换一个名称（两个目标不能同名）</translation>
    </message>
    <message>
        <source>target &apos;%1&apos;: &apos;%2&apos; is not an http:// or https:// URL</source>
        <comment>plan.metrics.target.url</comment>
        <translation>目标 “%1”：“%2” 不是 http:// 或 https:// URL</translation>
    </message>
    <message>
        <source>target &apos;%1&apos;: the URL must not hold a user name or password (it would be stored with the run); give a token reference instead</source>
        <comment>plan.metrics.target.credentials</comment>
        <translation>目标 “%1”：URL 不能包含用户名或密码（它会随运行保存）；请改为给出令牌引用</translation>
    </message>
    <message>
        <source>target &apos;%1&apos;: a token reference is env:NAME or keychain:NAME, got &apos;%2&apos;</source>
        <comment>plan.metrics.target.token_ref</comment>
        <translation>目标 “%1”：令牌引用须为 env:NAME 或 keychain:NAME，实际为 “%2”</translation>
    </message>
    <message>
        <source>must be between %1 and %2 seconds</source>
        <comment>plan.metrics.interval</comment>
        <translation>必须在 %1 到 %2 秒之间</translation>
    </message>
    <message>
        <source>Running requests (peak)</source>
        <comment>server.label.running_peak</comment>
        <translation>运行中请求（峰值）</translation>
    </message>
    <message>
        <source>Running requests (mean)</source>
        <comment>server.label.running_mean</comment>
        <translation>运行中请求（均值）</translation>
    </message>
    <message>
        <source>Waiting requests (peak)</source>
        <comment>server.label.waiting_peak</comment>
        <translation>等待中请求（峰值）</translation>
    </message>
    <message>
        <source>Waiting requests (mean)</source>
        <comment>server.label.waiting_mean</comment>
        <translation>等待中请求（均值）</translation>
    </message>
    <message>
        <source>KV-cache usage (peak)</source>
        <comment>server.label.kv_cache_usage_peak</comment>
        <translation>KV 缓存占用（峰值）</translation>
    </message>
    <message>
        <source>KV-cache usage (mean)</source>
        <comment>server.label.kv_cache_usage_mean</comment>
        <translation>KV 缓存占用（均值）</translation>
    </message>
    <message>
        <source>Preemptions</source>
        <comment>server.label.preemptions</comment>
        <translation>抢占次数</translation>
    </message>
    <message>
        <source>Prompt tokens (server)</source>
        <comment>server.label.server_prompt_tokens</comment>
        <translation>提示 token 数（服务器）</translation>
    </message>
    <message>
        <source>Generated tokens (server)</source>
        <comment>server.label.server_generation_tokens</comment>
        <translation>生成 token 数（服务器）</translation>
    </message>
    <message>
        <source>Finished requests (server)</source>
        <comment>server.label.server_requests</comment>
        <translation>完成请求数（服务器）</translation>
    </message>
    <message>
        <source>Prefix-cache hit rate</source>
        <comment>server.label.prefix_cache_hit_rate</comment>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <source>Mean TTFT (engine)</source>
        <comment>server.label.server_ttft_mean_ms</comment>
        <translation>TTFT 均值（引擎）</translation>
    </message>
    <message>
        <source>Median TTFT (engine)</source>
        <comment>server.label.server_ttft_p50_ms</comment>
        <translation>TTFT 中位数（引擎）</translation>
    </message>
    <message>
        <source>P90 TTFT (engine)</source>
        <comment>server.label.server_ttft_p90_ms</comment>
        <translation>TTFT P90（引擎）</translation>
    </message>
    <message>
        <source>P99 TTFT (engine)</source>
        <comment>server.label.server_ttft_p99_ms</comment>
        <translation>TTFT P99（引擎）</translation>
    </message>
    <message>
        <source>TTFT outside the engine (mean)</source>
        <comment>server.label.ttft_outside_engine_ms</comment>
        <translation>引擎外的 TTFT（均值）</translation>
    </message>
    <message>
        <source>Mean ITL (engine)</source>
        <comment>server.label.server_itl_mean_ms</comment>
        <translation>ITL 均值（引擎）</translation>
    </message>
    <message>
        <source>Median ITL (engine)</source>
        <comment>server.label.server_itl_p50_ms</comment>
        <translation>ITL 中位数（引擎）</translation>
    </message>
    <message>
        <source>P90 ITL (engine)</source>
        <comment>server.label.server_itl_p90_ms</comment>
        <translation>ITL P90（引擎）</translation>
    </message>
    <message>
        <source>P99 ITL (engine)</source>
        <comment>server.label.server_itl_p99_ms</comment>
        <translation>ITL P99（引擎）</translation>
    </message>
    <message>
        <source>Mean E2E latency (engine)</source>
        <comment>server.label.server_e2e_mean_ms</comment>
        <translation>端到端延迟均值（引擎）</translation>
    </message>
    <message>
        <source>Median E2E latency (engine)</source>
        <comment>server.label.server_e2e_p50_ms</comment>
        <translation>端到端延迟中位数（引擎）</translation>
    </message>
    <message>
        <source>P90 E2E latency (engine)</source>
        <comment>server.label.server_e2e_p90_ms</comment>
        <translation>端到端延迟 P90（引擎）</translation>
    </message>
    <message>
        <source>P99 E2E latency (engine)</source>
        <comment>server.label.server_e2e_p99_ms</comment>
        <translation>端到端延迟 P99（引擎）</translation>
    </message>
    <message>
        <source>E2EL outside the engine (mean)</source>
        <comment>server.label.e2e_outside_engine_ms</comment>
        <translation>引擎外的 E2EL（均值）</translation>
    </message>
    <message>
        <source>GPU utilisation (mean)</source>
        <comment>server.label.gpu_util_mean</comment>
        <translation>GPU 利用率（均值）</translation>
    </message>
    <message>
        <source>GPU power (mean)</source>
        <comment>server.label.power_mean_w</comment>
        <translation>GPU 功率（均值）</translation>
    </message>
    <message>
        <source>GPU energy in the window</source>
        <comment>server.label.energy_j</comment>
        <translation>时间窗内的 GPU 能耗</translation>
    </message>
    <message>
        <source>Energy per output token</source>
        <comment>server.label.joules_per_output_token</comment>
        <translation>每输出 token 能耗</translation>
    </message>
    <message>
        <source>GPU memory used (peak)</source>
        <comment>server.label.fb_used_peak_bytes</comment>
        <translation>GPU 显存占用（峰值）</translation>
    </message>
    <message>
        <source>Largest number of requests the engine reported running at a scrape inside the window.</source>
        <comment>server.def.running_peak</comment>
        <translation>时间窗内某次采集时引擎报告的运行中请求数的最大值。</translation>
    </message>
    <message>
        <source>Time-weighted mean of the running requests over the scrapes inside the window (trapezoids between consecutive scrapes).</source>
        <comment>server.def.running_mean</comment>
        <translation>时间窗内各次采集的运行中请求数的时间加权均值（相邻采集之间按梯形计算）。</translation>
    </message>
    <message>
        <source>Largest number of requests the engine reported waiting at a scrape inside the window.</source>
        <comment>server.def.waiting_peak</comment>
        <translation>时间窗内某次采集时引擎报告的等待中请求数的最大值。</translation>
    </message>
    <message>
        <source>Time-weighted mean of the waiting requests, as running_mean.</source>
        <comment>server.def.waiting_mean</comment>
        <translation>等待中请求数的时间加权均值，算法同“运行中请求（均值）”。</translation>
    </message>
    <message>
        <source>Largest KV-cache usage (0..1) reported at a scrape inside the window; the mean over engines when the server runs several.</source>
        <comment>server.def.kv_cache_usage_peak</comment>
        <translation>时间窗内某次采集时报告的 KV 缓存占用（0..1）的最大值；服务器运行多个引擎时取各引擎的平均。</translation>
    </message>
    <message>
        <source>Time-weighted mean of the KV-cache usage.</source>
        <comment>server.def.kv_cache_usage_mean</comment>
        <translation>KV 缓存占用的时间加权均值。</translation>
    </message>
    <message>
        <source>Increase of the engine&apos;s preemption counter from the last scrape at or before the window&apos;s start to the first scrape at or after its end; a drop is a counter reset and counts the new value.</source>
        <comment>server.def.preemptions</comment>
        <translation>引擎抢占计数器从时间窗开始时或之前的最后一次采集到结束时或之后的第一次采集的增量；计数器下降视为重置，计入新值。</translation>
    </message>
    <message>
        <source>Increase of the engine&apos;s prompt-token counter, as preemptions.</source>
        <comment>server.def.server_prompt_tokens</comment>
        <translation>引擎提示 token 计数器的增量，算法同“抢占次数”。</translation>
    </message>
    <message>
        <source>Increase of the engine&apos;s generated-token counter, as preemptions; beside it the client&apos;s output tokens and the difference server - client.</source>
        <comment>server.def.server_generation_tokens</comment>
        <translation>引擎生成 token 计数器的增量，算法同“抢占次数”；旁边给出客户端的输出 token 数及差值（服务器 - 客户端）。</translation>
    </message>
    <message>
        <source>Increase of the engine&apos;s finished-request counter, as preemptions; beside it the client&apos;s successful requests.</source>
        <comment>server.def.server_requests</comment>
        <translation>引擎完成请求计数器的增量，算法同“抢占次数”；旁边给出客户端的成功请求数。</translation>
    </message>
    <message>
        <source>Increase of the prefix-cache hit counter divided by the increase of the query counter over the same scrapes.</source>
        <comment>server.def.prefix_cache_hit_rate</comment>
        <translation>同一组采集之间前缀缓存命中计数器的增量除以查询计数器的增量。</translation>
    </message>
    <message>
        <source>Increase of the engine&apos;s TTFT histogram sum divided by the increase of its count, over the scrapes that bracket the window.</source>
        <comment>server.def.server_ttft_mean_ms</comment>
        <translation>在包围时间窗的两次采集之间，引擎 TTFT 直方图总和的增量除以其计数的增量。</translation>
    </message>
    <message>
        <source>Median of the increase of the engine&apos;s TTFT histogram over the bracketing scrapes, interpolated inside its bucket as Prometheus&apos; histogram_quantile does.</source>
        <comment>server.def.server_ttft_p50_ms</comment>
        <translation>包围时间窗的采集之间引擎 TTFT 直方图增量的中位数，按 Prometheus 的 histogram_quantile 在桶内插值。</translation>
    </message>
    <message>
        <source>90th percentile of the same histogram increase.</source>
        <comment>server.def.server_ttft_p90_ms</comment>
        <translation>同一直方图增量的第 90 百分位。</translation>
    </message>
    <message>
        <source>99th percentile of the same histogram increase.</source>
        <comment>server.def.server_ttft_p99_ms</comment>
        <translation>同一直方图增量的第 99 百分位。</translation>
    </message>
    <message>
        <source>Client&apos;s mean TTFT minus the engine&apos;s mean TTFT: the time a first token spends outside the engine&apos;s own measurement (network, HTTP server, queueing before the engine sees the request, client).</source>
        <comment>server.def.ttft_outside_engine_ms</comment>
        <translation>客户端 TTFT 均值减去引擎 TTFT 均值：首个 token 在引擎自身测量之外所花的时间（网络、HTTP 服务器、引擎接收请求前的排队、客户端）。</translation>
    </message>
    <message>
        <source>Mean of the engine&apos;s inter-token latency histogram increase.</source>
        <comment>server.def.server_itl_mean_ms</comment>
        <translation>引擎 token 间延迟直方图增量的均值。</translation>
    </message>
    <message>
        <source>Median of the engine&apos;s inter-token latency histogram increase.</source>
        <comment>server.def.server_itl_p50_ms</comment>
        <translation>引擎 token 间延迟直方图增量的中位数。</translation>
    </message>
    <message>
        <source>90th percentile of the same.</source>
        <comment>server.def.server_itl_p90_ms</comment>
        <translation>同上的第 90 百分位。</translation>
    </message>
    <message>
        <source>99th percentile of the same.</source>
        <comment>server.def.server_itl_p99_ms</comment>
        <translation>同上的第 99 百分位。</translation>
    </message>
    <message>
        <source>Mean of the engine&apos;s end-to-end latency histogram increase.</source>
        <comment>server.def.server_e2e_mean_ms</comment>
        <translation>引擎端到端延迟直方图增量的均值。</translation>
    </message>
    <message>
        <source>Median of the engine&apos;s end-to-end latency histogram increase.</source>
        <comment>server.def.server_e2e_p50_ms</comment>
        <translation>引擎端到端延迟直方图增量的中位数。</translation>
    </message>
    <message>
        <source>90th percentile of the same.</source>
        <comment>server.def.server_e2e_p90_ms</comment>
        <translation>同上的第 90 百分位。</translation>
    </message>
    <message>
        <source>99th percentile of the same.</source>
        <comment>server.def.server_e2e_p99_ms</comment>
        <translation>同上的第 99 百分位。</translation>
    </message>
    <message>
        <source>Client&apos;s mean E2EL minus the engine&apos;s mean end-to-end latency.</source>
        <comment>server.def.e2e_outside_engine_ms</comment>
        <translation>客户端 E2EL 均值减去引擎端到端延迟均值。</translation>
    </message>
    <message>
        <source>Time-weighted mean GPU utilisation over the scrapes inside the window, averaged over GPUs.</source>
        <comment>server.def.gpu_util_mean</comment>
        <translation>时间窗内各次采集的 GPU 利用率的时间加权均值，多 GPU 取平均。</translation>
    </message>
    <message>
        <source>Time-weighted mean GPU power over the scrapes inside the window, summed over GPUs.</source>
        <comment>server.def.power_mean_w</comment>
        <translation>时间窗内各次采集的 GPU 功率的时间加权均值，多 GPU 求和。</translation>
    </message>
    <message>
        <source>GPU energy from the last scrape at or before the window&apos;s start to the first at or after its end: the increase of the energy counter where the target exports one, otherwise the trapezoid integral of the summed power over those scrapes.</source>
        <comment>server.def.energy_j</comment>
        <translation>从时间窗开始时或之前的最后一次采集到结束时或之后的第一次采集的 GPU 能耗：目标导出能耗计数器时取其增量，否则取这些采集间总功率的梯形积分。</translation>
    </message>
    <message>
        <source>energy_j divided by the client&apos;s output tokens in the window.</source>
        <comment>server.def.joules_per_output_token</comment>
        <translation>“时间窗内的 GPU 能耗”除以时间窗内客户端的输出 token 数。</translation>
    </message>
    <message>
        <source>Largest framebuffer memory in use at a scrape inside the window, summed over GPUs.</source>
        <comment>server.def.fb_used_peak_bytes</comment>
        <translation>时间窗内某次采集时显存（帧缓冲）占用的最大值，多 GPU 求和。</translation>
    </message>
    <message>
        <source>n/a (%1)</source>
        <comment>server.na</comment>
        <translation>不可用（%1）</translation>
    </message>
    <message>
        <source>target &apos;%1&apos; not available: %2</source>
        <comment>server.reason.target_unavailable</comment>
        <translation>目标 “%1” 不可用：%2</translation>
    </message>
    <message>
        <source>never scraped</source>
        <comment>server.reason.never_scraped</comment>
        <translation>从未采集</translation>
    </message>
    <message>
        <source>no server metrics target</source>
        <comment>server.reason.no_target</comment>
        <translation>没有服务器指标目标</translation>
    </message>
    <message>
        <source>not exported by the target (%1)</source>
        <comment>server.reason.not_exported</comment>
        <translation>目标未导出该指标（%1）</translation>
    </message>
    <message>
        <source>no successful scrape of &apos;%1&apos; at or before the window&apos;s start</source>
        <comment>server.reason.no_scrape_before</comment>
        <translation>时间窗开始时或之前没有对 “%1” 的成功采集</translation>
    </message>
    <message>
        <source>no successful scrape of &apos;%1&apos; at or after the window&apos;s end</source>
        <comment>server.reason.no_scrape_after</comment>
        <translation>时间窗结束时或之后没有对 “%1” 的成功采集</translation>
    </message>
    <message>
        <source>no successful scrape of &apos;%1&apos; inside the window</source>
        <comment>server.reason.no_scrape_inside</comment>
        <translation>时间窗内没有对 “%1” 的成功采集</translation>
    </message>
    <message>
        <source>the value is not a finite number</source>
        <comment>server.reason.not_finite</comment>
        <translation>该值不是有限数</translation>
    </message>
    <message>
        <source>no observations in &apos;%1&apos; during the window</source>
        <comment>server.reason.no_observations</comment>
        <translation>时间窗内 “%1” 没有观测值</translation>
    </message>
    <message>
        <source>the engine exports no sum for it</source>
        <comment>server.reason.no_sum</comment>
        <translation>引擎未导出其总和</translation>
    </message>
    <message>
        <source>the engine exports no buckets for it (a mean only)</source>
        <comment>server.reason.no_buckets</comment>
        <translation>引擎未导出其分桶（只有均值）</translation>
    </message>
    <message>
        <source>the histogram has no +Inf bucket or fewer than two buckets</source>
        <comment>server.reason.no_inf_bucket</comment>
        <translation>直方图没有 +Inf 桶，或桶少于两个</translation>
    </message>
    <message>
        <source>no server mean: %1</source>
        <comment>server.reason.no_server_mean</comment>
        <translation>没有服务器均值：%1</translation>
    </message>
    <message>
        <source>no client mean given</source>
        <comment>server.reason.no_client_mean</comment>
        <translation>未给出客户端均值</translation>
    </message>
    <message>
        <source>no energy counter (%1) and no power: %2</source>
        <comment>server.reason.no_energy</comment>
        <translation>没有能耗计数器（%1），也没有功率：%2</translation>
    </message>
    <message>
        <source>fewer than two power samples around the window</source>
        <comment>server.reason.few_power</comment>
        <translation>时间窗前后的功率样本少于两个</translation>
    </message>
    <message>
        <source>the client counted no output tokens</source>
        <comment>server.reason.client_no_tokens</comment>
        <translation>客户端没有统计到输出 token</translation>
    </message>
    <message>
        <source>no client output tokens given</source>
        <comment>server.reason.no_client_tokens</comment>
        <translation>未给出客户端输出 token 数</translation>
    </message>
    <message>
        <source>no prefix-cache lookups during the window</source>
        <comment>server.reason.no_prefix_lookups</comment>
        <translation>时间窗内没有前缀缓存查询</translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <comment>server.reason.unreachable</comment>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>HTTP %1 %2</source>
        <comment>server.reason.http_status</comment>
        <translation>HTTP %1 %2</translation>
    </message>
    <message>
        <source>not Prometheus text: the server answered %1</source>
        <comment>server.reason.not_prometheus_type</comment>
        <translation>不是 Prometheus 文本：服务器返回了 %1</translation>
    </message>
    <message>
        <source>not Prometheus text: empty body</source>
        <comment>server.reason.not_prometheus_empty</comment>
        <translation>不是 Prometheus 文本：响应体为空</translation>
    </message>
    <message>
        <source>not Prometheus text: no line is a metric (%1)</source>
        <comment>server.reason.not_prometheus_lines</comment>
        <translation>不是 Prometheus 文本：没有一行是指标（%1）</translation>
    </message>
    <message>
        <source>oversize: Content-Length %1 exceeds the %2-byte cap; payload dropped</source>
        <comment>server.reason.oversize_length</comment>
        <translation>过大：Content-Length %1 超过 %2 字节上限；已丢弃负载</translation>
    </message>
    <message>
        <source>oversize: the body passed the %1-byte cap (%2 bytes read); payload dropped</source>
        <comment>server.reason.oversize_body</comment>
        <translation>过大：响应体超过 %1 字节上限（已读 %2 字节）；已丢弃负载</translation>
    </message>
    <message>
        <source>timeout: no complete response within %1 ms</source>
        <comment>server.reason.timeout</comment>
        <translation>超时：%1 ms内没有完整响应</translation>
    </message>
    <message>
        <source>server metrics off for &apos;%1&apos; (%2): %3 at the first scrape</source>
        <comment>server.reason.switched_off</comment>
        <translation>已关闭 “%1”（%2）的服务器指标：首次采集时 %3</translation>
    </message>
    <message>
        <source>Target &apos;%1&apos; (%2): %3, %4 scrapes, %5 successful</source>
        <comment>server.target.ok</comment>
        <translation>目标 “%1”（%2）：%3，采集 %4 次，成功 %5 次</translation>
    </message>
    <message>
        <source>Target &apos;%1&apos; (%2): not available: %3</source>
        <comment>server.target.na</comment>
        <translation>目标 “%1”（%2）：不可用：%3</translation>
    </message>
    <message>
        <source>target &apos;%1&apos;, series %2</source>
        <comment>server.source</comment>
        <translation>目标 “%1”，序列 %2</translation>
    </message>
    <message>
        <source>no data: no scraped target exports it</source>
        <comment>server.chart.not_exported</comment>
        <translation>无数据：所采集的目标均未导出此值</translation>
    </message>
    <message>
        <source>no data in the run&apos;s scrapes (the table says why)</source>
        <comment>server.chart.no_data</comment>
        <translation>运行期间的采集中没有此数据（原因见上表）</translation>
    </message>
    <message>
        <source>Server</source>
        <comment>cmp.group.server</comment>
        <translation>服务器</translation>
    </message>
    <message>
        <source>no server metrics were scraped for this run</source>
        <comment>cmp.note.no_server_metrics</comment>
        <translation>此运行未采集服务器指标</translation>
    </message>
    <message>
        <source>Server-side and GPU evidence</source>
        <comment>report.section.server</comment>
        <translation>服务器端与 GPU 证据</translation>
    </message>
    <message>
        <source>What the engine and the GPU exporters reported over each run&apos;s measured window (its first send to its last completion), beside what the client measured. Gauges are read at the scrapes inside the window; counters and histograms over the scrapes that bracket it.</source>
        <comment>report.server.intro</comment>
        <translation>每个运行的计量时间窗（首次发送到最后完成）内引擎和 GPU 导出器报告的数据，与客户端的测量并列。仪表值取时间窗内的采集；计数器和直方图取包围时间窗的采集。</translation>
    </message>
    <message>
        <source>%1: no server metrics were scraped.</source>
        <comment>report.server.none</comment>
        <translation>%1：未采集服务器指标。</translation>
    </message>
    <message>
        <source>target</source>
        <comment>report.server.col.target</comment>
        <translation>目标</translation>
    </message>
    <message>
        <source>engine</source>
        <comment>report.server.col.engine</comment>
        <translation>引擎</translation>
    </message>
    <message>
        <source>scrapes (successful)</source>
        <comment>report.server.col.scrapes</comment>
        <translation>采集次数（成功）</translation>
    </message>
    <message>
        <source>status</source>
        <comment>report.server.col.status</comment>
        <translation>状态</translation>
    </message>
    <message>
        <source>figure</source>
        <comment>report.server.col.figure</comment>
        <translation>指标</translation>
    </message>
    <message>
        <source>value</source>
        <comment>report.server.col.value</comment>
        <translation>数值</translation>
    </message>
    <message>
        <source>available</source>
        <comment>report.server.status.available</comment>
        <translation>可用</translation>
    </message>
    <message>
        <source>Engine queue beside the client&apos;s TTFT: %1</source>
        <comment>report.server.chart.queue</comment>
        <translation>引擎队列与客户端 TTFT：%1</translation>
    </message>
    <message>
        <source>KV-cache usage beside the client&apos;s TTFT: %1</source>
        <comment>report.server.chart.kv</comment>
        <translation>KV 缓存占用与客户端 TTFT：%1</translation>
    </message>
    <message>
        <source>GPU power beside the client&apos;s TTFT: %1</source>
        <comment>report.server.chart.power</comment>
        <translation>GPU 功率与客户端 TTFT：%1</translation>
    </message>
    <message>
        <source>s since the run&apos;s start</source>
        <comment>report.server.axis.time</comment>
        <translation>自运行开始的秒数</translation>
    </message>
    <message>
        <source>client TTFT (ms)</source>
        <comment>report.server.axis.ttft</comment>
        <translation>客户端 TTFT（ms）</translation>
    </message>
    <message>
        <source>requests</source>
        <comment>report.server.axis.requests</comment>
        <translation>请求数</translation>
    </message>
    <message>
        <source>% of the KV cache</source>
        <comment>report.server.axis.percent</comment>
        <translation>KV 缓存的 %</translation>
    </message>
    <message>
        <source>watts</source>
        <comment>report.server.axis.watts</comment>
        <translation>瓦</translation>
    </message>
    <message>
        <source>running</source>
        <comment>report.server.series.running</comment>
        <translation>运行中</translation>
    </message>
    <message>
        <source>waiting</source>
        <comment>report.server.series.waiting</comment>
        <translation>等待中</translation>
    </message>
    <message>
        <source>KV-cache usage</source>
        <comment>report.server.series.kv</comment>
        <translation>KV 缓存占用</translation>
    </message>
    <message>
        <source>GPU power</source>
        <comment>report.server.series.power</comment>
        <translation>GPU 功率</translation>
    </message>
    <message>
        <source>TTFT (client, by send time)</source>
        <comment>report.server.series.ttft</comment>
        <translation>TTFT（客户端，按发送时间）</translation>
    </message>
    <message>
        <source>Server metrics of run %1</source>
        <comment>report.server.run</comment>
        <translation>运行 %1 的服务器指标</translation>
    </message>
    <message>
        <source>%1 requests</source>
        <comment>server.value.requests</comment>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <comment>server.value.tokens</comment>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>is required</source>
        <comment>study.required</comment>
        <translation>为必填项</translation>
    </message>
    <message>
        <source>must be a string</source>
        <comment>study.type.string</comment>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <source>must be a number</source>
        <comment>study.type.number</comment>
        <translation>必须是数字</translation>
    </message>
    <message>
        <source>must be an array of strings</source>
        <comment>study.type.strings</comment>
        <translation>必须是字符串数组</translation>
    </message>
    <message>
        <source>must be an object</source>
        <comment>study.type.object</comment>
        <translation>必须是对象</translation>
    </message>
    <message>
        <source>must be an array</source>
        <comment>study.type.array</comment>
        <translation>必须是数组</translation>
    </message>
    <message>
        <source>cannot be read: %1</source>
        <comment>study.file.unreadable</comment>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>%1 carries a credential written out, which the project file would keep: give the key in the environment or the keychain and write {api_key} where it goes</source>
        <comment>study.literal_secret</comment>
        <translation>%1 以明文写入了凭据，项目文件会保存它：请把密钥放在环境变量或钥匙串中，并在需要的位置写 {api_key}</translation>
    </message>
    <message>
        <source>is not a study definition: %1</source>
        <comment>study.file.json</comment>
        <translation>不是研究定义：%1</translation>
    </message>
    <message>
        <source>must be between 1 and 100, got %1</source>
        <comment>study.repeats</comment>
        <translation>必须在 1 到 100 之间，实际为 %1</translation>
    </message>
    <message>
        <source>must be warm, per-request or lazy, got &apos;%1&apos;</source>
        <comment>study.connection_mode</comment>
        <translation>必须是 warm、per-request 或 lazy，实际为“%1”</translation>
    </message>
    <message>
        <source>%1 is set by the study itself and may not be given here</source>
        <comment>study.flags.reserved</comment>
        <translation>%1 由研究本身设置，不能在此给出</translation>
    </message>
    <message>
        <source>needs at least one scenario</source>
        <comment>study.scenarios.none</comment>
        <translation>至少需要一个场景</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is used twice: names must be unique</source>
        <comment>study.name.duplicate</comment>
        <translation>“%1”被使用了两次：名称必须唯一</translation>
    </message>
    <message>
        <source>must be open-loop, offline, single-stream or server, got &apos;%1&apos;</source>
        <comment>study.scenario.kind</comment>
        <translation>必须是 open-loop、offline、single-stream 或 server，实际为“%1”</translation>
    </message>
    <message>
        <source>needs at least two candidates</source>
        <comment>study.candidates.few</comment>
        <translation>至少需要两个候选</translation>
    </message>
    <message>
        <source>is required unless the candidate is the built-in simulator (&quot;simulator&quot;: {})</source>
        <comment>study.candidate.where</comment>
        <translation>除非候选是内置模拟器（&quot;simulator&quot;: {}），否则为必填项</translation>
    </message>
    <message>
        <source>must not be given for the built-in simulator</source>
        <comment>study.candidate.both</comment>
        <translation>内置模拟器不能指定此项</translation>
    </message>
    <message>
        <source>must be bills or price_per_hour, got &apos;%1&apos;</source>
        <comment>study.cost.source</comment>
        <translation>必须是 bills 或 price_per_hour，实际为“%1”</translation>
    </message>
    <message>
        <source>must be prorate or whole, got &apos;%1&apos;</source>
        <comment>study.cost.overlap</comment>
        <translation>必须是 prorate 或 whole，实际为“%1”</translation>
    </message>
    <message>
        <source>must be a positive decimal amount, got &apos;%1&apos;</source>
        <comment>study.cost.price</comment>
        <translation>必须是正的十进制金额，实际为“%1”</translation>
    </message>
    <message>
        <source>must be a three-letter currency code (ISO 4217), got &apos;%1&apos;</source>
        <comment>study.cost.currency</comment>
        <translation>必须是三个字母的货币代码（ISO 4217），实际为“%1”</translation>
    </message>
    <message>
        <source>must be at least 1, got %1</source>
        <comment>study.cost.resources</comment>
        <translation>至少为 1，实际为 %1</translation>
    </message>
    <message>
        <source>must be gpu, cpu, storage, network, platform or other, got &apos;%1&apos;</source>
        <comment>study.cost.category</comment>
        <translation>必须是 gpu、cpu、storage、network、platform 或 other，实际为“%1”</translation>
    </message>
    <message>
        <source>names no candidate: &apos;%1&apos;</source>
        <comment>study.baseline.unknown</comment>
        <translation>未指向任何候选：“%1”</translation>
    </message>
    <message>
        <source>the cell&apos;s run flags are not a valid run: %1</source>
        <comment>study.flags.invalid</comment>
        <translation>该单元的运行参数不构成有效运行：%1</translation>
    </message>
    <message>
        <source>Order: %1 repeat blocks; within each, every scenario on every candidate, the candidates in a Latin-square rotation seeded with %2 (%3), so that drift in the environment falls on every candidate alike.</source>
        <comment>study.order</comment>
        <translation>顺序：%1 个重复块；每个块内，每个场景在每个候选上运行，候选按以 %2 为种子的拉丁方轮换排列（%3），使环境漂移平均地落在每个候选上。</translation>
    </message>
    <message>
        <source>must be between 0 and 600000 milliseconds</source>
        <comment>plan.sim.timing</comment>
        <translation>必须在 0 到 600000 ms之间</translation>
    </message>
    <message>
        <source>baseline</source>
        <comment>study.verdict.baseline</comment>
        <translation>基准</translation>
    </message>
    <message>
        <source>tied with the baseline (intervals overlap)</source>
        <comment>study.verdict.tied</comment>
        <translation>与基准并列（区间重叠）</translation>
    </message>
    <message>
        <source>Ranking with ties: each figure is the mean over the repeats with its %1 interval (Student t over the repeats&apos; run-level values, so it reflects run-to-run variation); two candidates are separated only when their intervals do not overlap, otherwise they are tied and share a rank.</source>
        <comment>study.rank.rule</comment>
        <translation>带并列的排名：每个数值是各次重复的均值及其 %1 区间（对各次重复的运行级数值使用 Student t，因此反映运行间波动）；只有区间不重叠时两个候选才被区分，否则并列并共享名次。</translation>
    </message>
    <message>
        <source>Study %1, version %2 (definition sha256 %3…)</source>
        <comment>study.text.title</comment>
        <translation>研究 %1，版本 %2（定义 sha256 %3…）</translation>
    </message>
    <message>
        <source>Question: %1</source>
        <comment>study.text.question</comment>
        <translation>问题：%1</translation>
    </message>
    <message>
        <source>Cells completed: %1 of %2</source>
        <comment>study.text.cells</comment>
        <translation>已完成单元：%1 / %2</translation>
    </message>
    <message>
        <source>Scenario %1 (%2): ranked by %3, lower is better; mean over the repeats with its %4 interval</source>
        <comment>study.text.scenario.lower</comment>
        <translation>场景 %1（%2）：按 %3 排名，越低越好；各次重复的均值及其 %4 区间</translation>
    </message>
    <message>
        <source>Scenario %1 (%2): ranked by %3, higher is better; mean over the repeats with its %4 interval</source>
        <comment>study.text.scenario.higher</comment>
        <translation>场景 %1（%2）：按 %3 排名，越高越好；各次重复的均值及其 %4 区间</translation>
    </message>
    <message>
        <source>Cost per successful request and per 1M output tokens (the candidate&apos;s test window for this scenario):</source>
        <comment>study.text.cost</comment>
        <translation>每个成功请求及每 100 万输出 token 的成本（该候选在此场景的测试窗口）：</translation>
    </message>
    <message>
        <source>Other metrics (mean [interval] over the repeats):</source>
        <comment>study.text.other</comment>
        <translation>其他指标（各次重复的均值 [区间]）：</translation>
    </message>
    <message>
        <source>Left out of the decision: %1 cell(s)</source>
        <comment>study.text.left_out</comment>
        <translation>未纳入决策：%1 个单元</translation>
    </message>
    <message>
        <source>Missing: no completed cell of %1; the decision is between the other candidates.</source>
        <comment>study.text.missing</comment>
        <translation>缺失：%1 没有已完成的单元；决策仅在其余候选之间进行。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <comment>study.text.note</comment>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>every request failed (%1 failed, none completed)</source>
        <comment>study.reason.all_failed</comment>
        <translation>所有请求均失败（%1 个失败，无一完成）</translation>
    </message>
    <message>
        <source>different dataset hash (%1, the study&apos;s is %2)</source>
        <comment>study.reason.dataset</comment>
        <translation>数据集哈希不同（%1，研究的为 %2）</translation>
    </message>
    <message>
        <source>not run yet</source>
        <comment>study.reason.not_run</comment>
        <translation>尚未运行</translation>
    </message>
    <message>
        <source>running, or interrupted</source>
        <comment>study.reason.running</comment>
        <translation>运行中或已中断</translation>
    </message>
    <message>
        <source>no test window (no completed cell)</source>
        <comment>study.reason.no_window</comment>
        <translation>没有测试窗口（没有已完成的单元）</translation>
    </message>
    <message>
        <source>the run ended %1</source>
        <comment>study.reason.ended</comment>
        <translation>运行以 %1 结束</translation>
    </message>
    <message>
        <source>Boundary: model %1 · dataset %2 · request %3 · connection %4 · cache %5</source>
        <comment>study.report.boundary</comment>
        <translation>边界：模型 %1 · 数据集 %2 · 请求 %3 · 连接 %4 · 缓存 %5</translation>
    </message>
    <message>
        <source>candidate</source>
        <comment>study.report.candidate</comment>
        <translation>候选</translation>
    </message>
    <message>
        <source>runs</source>
        <comment>study.report.runs</comment>
        <translation>运行</translation>
    </message>
    <message>
        <source>verdict</source>
        <comment>study.report.verdict</comment>
        <translation>结论</translation>
    </message>
    <message>
        <source>cost per successful request</source>
        <comment>study.report.cost_request</comment>
        <translation>每个成功请求的成本</translation>
    </message>
    <message>
        <source>cost per 1M output tokens</source>
        <comment>study.report.cost_tokens</comment>
        <translation>每 100 万输出 token 的成本</translation>
    </message>
    <message>
        <source>Method</source>
        <comment>study.report.method</comment>
        <translation>方法</translation>
    </message>
    <message>
        <source>scenario</source>
        <comment>study.report.scenario</comment>
        <translation>场景</translation>
    </message>
    <message>
        <source>kind</source>
        <comment>study.report.kind</comment>
        <translation>类型</translation>
    </message>
    <message>
        <source>load</source>
        <comment>study.report.load</comment>
        <translation>负载</translation>
    </message>
    <message>
        <source>Repeats per cell: %1 · order seed: %2 · baseline: %3</source>
        <comment>study.report.repeats</comment>
        <translation>每个单元的重复次数：%1 · 顺序种子：%2 · 基准：%3</translation>
    </message>
    <message>
        <source>metric</source>
        <comment>study.report.metric</comment>
        <translation>指标</translation>
    </message>
    <message>
        <source>test window</source>
        <comment>study.report.window</comment>
        <translation>测试窗口</translation>
    </message>
    <message>
        <source>Cost source: %1</source>
        <comment>study.report.cost_source</comment>
        <translation>成本来源：%1</translation>
    </message>
    <message>
        <source>client saturated: %1</source>
        <comment>study.reason.client</comment>
        <translation>客户端饱和：%1</translation>
    </message>
    <message>
        <source>cell #%1 %2 · %3 · r%4 kept: its client sent late (lateness p99 %5 ms, above %6 ms) but met the offered rate, and TTFT counts from the send</source>
        <comment>study.note.late_kept</comment>
        <translation>单元 #%1 %2 · %3 · r%4 保留：其客户端发送偏晚（延迟 p99 为 %5 ms，高于 %6 ms），但达到了所给负载速率，且 TTFT 从发送时刻计起</translation>
    </message>
    <message>
        <source>cache state not as the study says (%1)</source>
        <comment>study.reason.cache</comment>
        <translation>缓存状态与研究规定不符（%1）</translation>
    </message>
    <message>
        <source>max_valid_rate is the figure of merit of a server scenario (a rate search), not of a %1 one</source>
        <comment>study.rank_by.search</comment>
        <translation>max_valid_rate 是 server 场景（速率搜索）的评价指标，不适用于 %1 场景</translation>
    </message>
    <message>
        <source>Highest valid Server rate</source>
        <comment>study.merit.max_valid_rate</comment>
        <translation>最高有效 Server 速率</translation>
    </message>
    <message>
        <source>no valid rate: none of its %1 searches found a VALID Server rate</source>
        <comment>study.merit.none_valid</comment>
        <translation>无有效速率：其 %1 次搜索均未找到 VALID 的 Server 速率</translation>
    </message>
    <message>
        <source>highest VALID Server rate %1 req/s (%2 rates tried)</source>
        <comment>study.reason.search_valid</comment>
        <translation>最高 VALID Server 速率 %1 req/s（尝试了 %2 个速率）</translation>
    </message>
    <message>
        <source>no Server rate tried was VALID (lowest tried %1 req/s): the search&apos;s result is 0</source>
        <comment>study.reason.search_none</comment>
        <translation>尝试的 Server 速率均非 VALID（最低尝试 %1 req/s）：搜索结果为 0</translation>
    </message>
    <message>
        <source>must be a percentage from 0 to 100</source>
        <comment>plan.cancel.rate</comment>
        <translation>必须是 0 到 100 之间的百分比</translation>
    </message>
    <message>
        <source>must be 0 or more seconds, at most %1</source>
        <comment>plan.cancel.delay</comment>
        <translation>必须为 0 秒或以上，最多 %1 秒</translation>
    </message>
    <message>
        <source>must be between 1 and %1 token chunks</source>
        <comment>plan.cancel.tokens</comment>
        <translation>必须在 1 到 %1 个 token 块之间</translation>
    </message>
    <message>
        <source>needs --request-cancellation-rate above 0</source>
        <comment>plan.cancel.needs_rate</comment>
        <translation>需要 --request-cancellation-rate 大于 0</translation>
    </message>
    <message>
        <source>excludes --request-cancellation-delay: a request is cancelled after a delay or after tokens, not both</source>
        <comment>plan.cancel.both</comment>
        <translation>与 --request-cancellation-delay 互斥：请求要么在延迟后取消，要么在收到若干 token 后取消，不能两者兼有</translation>
    </message>
    <message>
        <source>does not apply to a session workload: a cancelled turn would cut its conversation&apos;s history</source>
        <comment>plan.cancel.sessions</comment>
        <translation>不适用于会话负载：取消某一轮会截断其对话历史</translation>
    </message>
    <message>
        <source>cannot be combined with an MLPerf scenario: MLPerf judges every query&apos;s latency, and a cancelled query has none</source>
        <comment>plan.cancel.mlperf</comment>
        <translation>不能与 MLPerf 场景同时使用：MLPerf 评判每个查询的延迟，而被取消的查询没有延迟</translation>
    </message>
    <message>
        <source>must be between 1 and %1 items</source>
        <comment>plan.batch.range</comment>
        <translation>必须在 1 到 %1 项之间</translation>
    </message>
    <message>
        <source>applies to embeddings and rerank endpoints only: a generation request sends one prompt</source>
        <comment>plan.batch.not_pooling</comment>
        <translation>仅适用于嵌入和重排序端点：生成请求只发送一个提示词</translation>
    </message>
    <message>
        <source>does not apply to an embeddings or rerank endpoint: it has no conversation to continue</source>
        <comment>plan.pooling.sessions</comment>
        <translation>不适用于嵌入或重排序端点：它没有可延续的对话</translation>
    </message>
    <message>
        <source>does not apply to an embeddings or rerank endpoint: its answer is not streamed, no token arrives before it ends</source>
        <comment>plan.pooling.streamed</comment>
        <translation>不适用于嵌入或重排序端点：其回答不是流式的，结束前不会有 token 到达</translation>
    </message>
    <message>
        <source>cannot judge an embeddings or rerank run: MLPerf&apos;s bounds are on TTFT and TPOT, which a non-streamed endpoint does not have</source>
        <comment>plan.pooling.mlperf</comment>
        <translation>无法评判嵌入或重排序运行：MLPerf 的界限针对 TTFT 和 TPOT，而非流式端点没有这些指标</translation>
    </message>
    <message>
        <source>cannot split batches of more than one item between agents yet</source>
        <comment>plan.pooling.shard</comment>
        <translation>暂时无法把多于一项的批次拆分给多个代理</translation>
    </message>
    <message>
        <source>must be between 0 and %1 images</source>
        <comment>plan.images.count</comment>
        <translation>必须在 0 到 %1 张图像之间</translation>
    </message>
    <message>
        <source>must be between 1 and %1 pixels</source>
        <comment>plan.images.size</comment>
        <translation>必须在 1 到 %1 像素之间</translation>
    </message>
    <message>
        <source>must be png, got &apos;%1&apos;</source>
        <comment>plan.images.format</comment>
        <translation>必须是 png，实际为“%1”</translation>
    </message>
    <message>
        <source>needs a chat or Responses endpoint (openai-chat, openai-responses); %1 takes no images</source>
        <comment>plan.images.flavour</comment>
        <translation>需要聊天或 Responses 端点（openai-chat、openai-responses）；%1 不接受图像</translation>
    </message>
    <message>
        <source>do not apply to a session workload yet</source>
        <comment>plan.images.sessions</comment>
        <translation>暂不适用于会话负载</translation>
    </message>
    <message>
        <source>do not apply to a trace replay yet</source>
        <comment>plan.images.trace</comment>
        <translation>暂不适用于轨迹回放</translation>
    </message>
    <message>
        <source>would hold about %1 MiB of images in memory (%2 requests, %3 images of %4x%5 each); at most %6 MiB: use fewer requests or smaller images</source>
        <comment>plan.images.memory</comment>
        <translation>将在内存中占用约 %1 MiB 图像（%2 个请求，每个 %3 张 %4x%5 图像）；上限为 %6 MiB：请减少请求数或缩小图像</translation>
    </message>
    <message>
        <source>needs an endpoint: the built-in simulator is started by ServeBench itself (a managed server is started by its command and reached at the base URL)</source>
        <comment>plan.managed.builtin</comment>
        <translation>需要一个端点：内置模拟器由 ServeBench 自行启动（托管服务器由其启动命令启动，并通过基础 URL 访问）</translation>
    </message>
    <message>
        <source>must be session or run, got &apos;%1&apos;</source>
        <comment>plan.managed.lifetime</comment>
        <translation>必须是 session 或 run，实际为“%1”</translation>
    </message>
    <message>
        <source>must be refuse or bust, got &apos;%1&apos;</source>
        <comment>plan.cache.fallback</comment>
        <translation>必须是 refuse 或 bust，实际为“%1”</translation>
    </message>
    <message>
        <source>writes out %1, which the project would store: write it as $VARIABLE and set it in the environment</source>
        <comment>plan.managed.secret</comment>
        <translation>明文写出了 %1，而项目文件会保存它：请写成 $VARIABLE 并在环境中设置</translation>
    </message>
    <message>
        <source>thinking budget</source>
        <comment>cmp.field.thinking_budget</comment>
        <translation>思考预算</translation>
    </message>
    <message>
        <source>API kind</source>
        <comment>cmp.field.api_kind</comment>
        <translation>API 类型</translation>
    </message>
    <message>
        <source>streamed text generation</source>
        <comment>cmp.value.api_generation</comment>
        <translation>流式文本生成</translation>
    </message>
    <message>
        <source>embeddings (non-streamed)</source>
        <comment>cmp.value.api_embeddings</comment>
        <translation>嵌入（非流式）</translation>
    </message>
    <message>
        <source>rerank (non-streamed)</source>
        <comment>cmp.value.api_rerank</comment>
        <translation>重排序（非流式）</translation>
    </message>
    <message>
        <source>the runs measure different kinds of API (%1): a streamed generation and an embeddings or rerank request have different metrics.</source>
        <comment>cmp.refusal.api_kind</comment>
        <translation>这些运行测量的是不同类型的 API（%1）：流式生成与嵌入或重排序请求的指标不同。</translation>
    </message>
    <message>
        <source>server overloaded</source>
        <comment>error_class.overloaded</comment>
        <translation>服务器过载</translation>
    </message>
    <message>
        <source>cancelled by the load</source>
        <comment>error_class.cancelled_by_load</comment>
        <translation>被负载取消</translation>
    </message>
    <message>
        <source>answer does not match the request</source>
        <comment>error_class.result_mismatch</comment>
        <translation>回答与请求不符</translation>
    </message>
    <message>
        <source>the client was the bottleneck: its thread %1 wanted the CPU %2 % of the window ending at %3 s (on a CPU %4 %, waiting for one %5 %; limit %6 %) — the client, not the SUT, limited this run</source>
        <comment>health.thread_busy</comment>
        <translation>客户端是瓶颈：其线程 %1 在截至 %3 秒的窗口中有 %2 % 的时间需要 CPU（在 CPU 上 %4 %，等待 CPU %5 %；上限 %6 %）——限制这次运行的是客户端，而不是被测系统</translation>
    </message>
    <message>
        <source>the client was the bottleneck: its lateness grew through the run (p99 per second from %1 ms to %2 ms, %3 ms per s) — the client, not the SUT, limited this run</source>
        <comment>health.lag_growing</comment>
        <translation>客户端是瓶颈：其延迟在运行中不断增长（每秒 p99 从 %1 ms 增至 %2 ms，每秒增加 %3 ms）——限制这次运行的是客户端，而不是被测系统</translation>
    </message>
    <message>
        <source>non-streamed endpoint: no tokens are generated</source>
        <comment>na.non_streamed</comment>
        <translation>非流式端点：不生成 token</translation>
    </message>
    <message>
        <source>no successful request has both a send time and an end</source>
        <comment>na.no_end</comment>
        <translation>没有成功请求同时具有发送时间和结束时间</translation>
    </message>
    <message>
        <source>no request carried images</source>
        <comment>na.no_images</comment>
        <translation>没有请求携带图像</translation>
    </message>
    <message>
        <source>must be cache-bust, as-is, reset or restart, got &apos;%1&apos;</source>
        <comment>study.cache_policy</comment>
        <translation>必须是 cache-bust、as-is、reset 或 restart，实际为“%1”</translation>
    </message>
    <message>
        <source>restart needs every candidate to be a managed server (--server-start-cmd in its flags); %1 is not</source>
        <comment>study.cache_policy.restart</comment>
        <translation>restart 要求每个候选方案都是托管服务器（其参数中有 --server-start-cmd）；%1 不是</translation>
    </message>
    <message>
        <source>completed, but left out of the decision: the client, not the candidate, was measured (%1)</source>
        <comment>study.reason.client_left_out</comment>
        <translation>已完成，但未纳入决策：测到的是客户端，而不是候选方案（%1）</translation>
    </message>
    <message>
        <source>must be more than 0 and at most %1 seconds</source>
        <comment>plan.managed.timeout</comment>
        <translation>必须大于 0 且不超过 %1 秒</translation>
    </message>
    <message>
        <source>Input token throughput</source>
        <comment>cmp.row.input_throughput</comment>
        <translation>输入 token 吞吐量</translation>
    </message>
    <message>
        <source>Item throughput</source>
        <comment>cmp.row.item_throughput</comment>
        <translation>项吞吐量</translation>
    </message>
    <message>
        <source>%1, in place of %2: the runs are of a non-streamed endpoint (embeddings or rerank), which has no first token, TPOT, ITL or output tokens</source>
        <comment>cmp.rank.non_streamed</comment>
        <translation>%1，代替 %2：这些运行针对非流式端点（嵌入或重排序），没有首个 token、TPOT、ITL 或输出 token</translation>
    </message>
    <message>
        <source>End-to-end latency; successful measured requests only. An embeddings or rerank answer is not streamed: its E2EL is t_end − t_send, to the end of its body.</source>
        <comment>metric.e2el.detail</comment>
        <translation>端到端延迟；仅统计成功的计量请求。嵌入或重排序的回答不是流式的：其 E2EL 为 t_end − t_send，直到响应体结束。</translation>
    </message>
    <message>
        <source>t_last − t_sched (t_end − t_sched for an embeddings or rerank answer); successful measured requests only.</source>
        <comment>metric.e2el_from_sched.detail</comment>
        <translation>t_last − t_sched（嵌入或重排序的回答为 t_end − t_sched）；仅统计成功的计量请求。</translation>
    </message>
    <message>
        <source>Input token throughput</source>
        <comment>metric.input_throughput.label</comment>
        <translation>输入 token 吞吐量</translation>
    </message>
    <message>
        <source>Σ n_in of successful requests / duration</source>
        <comment>metric.input_throughput.definition</comment>
        <translation>成功请求的 Σ n_in / 时长</translation>
    </message>
    <message>
        <source>Reported for embeddings and rerank runs, whose n_in is usage.prompt_tokens, else usage.total_tokens, else the dataset&apos;s count.</source>
        <comment>metric.input_throughput.detail</comment>
        <translation>针对嵌入和重排序运行报告，其 n_in 取 usage.prompt_tokens，否则取 usage.total_tokens，否则取数据集的计数。</translation>
    </message>
    <message>
        <source>Item throughput</source>
        <comment>metric.item_throughput.label</comment>
        <translation>项吞吐量</translation>
    </message>
    <message>
        <source>Σ items (embeddings inputs, rerank documents) of successful requests / duration</source>
        <comment>metric.item_throughput.definition</comment>
        <translation>成功请求的 Σ 项数（嵌入的输入、重排序的文档）/ 时长</translation>
    </message>
    <message>
        <source>Embeddings and rerank runs: a request&apos;s items are its batch (--random-batch-size).</source>
        <comment>metric.item_throughput.detail</comment>
        <translation>嵌入和重排序运行：一个请求的项即其批次（--random-batch-size）。</translation>
    </message>
    <message>
        <source>input tok/s</source>
        <comment>report.col.input_tps</comment>
        <translation>输入 tok/s</translation>
    </message>
</context>
</TS>

import json, shlex
L = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct"
cases = []
def c(id, args, profile=None, base=L):
    d = {"id": id, "cmd": base + (" " + args if args else "")}
    if profile: d["profile"] = profile
    cases.append(d)
c("CG001-trigger", '--cuda-graph-config {"decode":{"backend":"piecewise"}}')
c("CG001-near", '--cuda-graph-config {"decode":{"backend":"breakable"}}')
c("CG001-prefill-null", '--cuda-graph-config {"prefill":{"backend":null}}')
c("CG001-prefill-int", '--cuda-graph-config {"prefill":{"backend":1,"max_bs":64}}')
c("CG002-trigger", "--cuda-graph-prefill-max-context 0")
c("CG002-near", "--cuda-graph-prefill-max-context 8192")
c("CG002-negative", "--context-bucket -4")
c("CG002-json", '--cuda-graph-config {"prefill":{"max_context_size":0}}')
c("CG002-suffix", "--cuda-graph-prefill-max-context 8k")
c("CG101-trigger", "--dcp-size 2")
c("CG101-near", "--dcp-size 2 --cuda-graph-backend-prefill breakable")
c("CG101-tbo", "--tp-size 8 --ep-size 8 --moe-a2a-backend deepep --enable-two-batch-overlap", base="python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B")
c("CG101-a2a", "--moe-a2a-backend mooncake --tp-size 2 --ep-size 2", base="python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B")
c("CG101-pp-silent", "--pp-size 2 --dcp-size 2")
c("CG102-trigger", "--cuda-graph-backend-prefill full")
c("CG102-near", "--cuda-graph-backend-prefill breakable")
c("CG102-json", '--cuda-graph-config {"prefill":{"backend":"full"}}')
c("CG103-trigger", "--tp-size 2 --attn-cp-size 2 --enable-prefill-cp --cp-strategy zigzag")
c("CG103-near", "--tp-size 2 --attn-cp-size 2 --enable-prefill-cp --cp-strategy zigzag --attention-backend trtllm_mha", profile="b200")
c("cg-disable-legacy", "--disable-cuda-graph")
c("cg-pd-decode", "--disaggregation-mode decode --cuda-graph-max-bs-decode 64 --cuda-graph-bs-decode 1 2 4 8")
c("cg-pd-prefill-full", "--disaggregation-mode prefill --cuda-graph-backend-prefill full")
c("cg-tensor-dump", "--debug-tensor-dump-output-folder /tmp/sglp-dump --cuda-graph-backend-prefill full")
c("cg-deepep-buckets", "--tp-size 8 --ep-size 8 --moe-a2a-backend deepep --cuda-graph-bs-prefill 4 12 30", base="python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B")
c("cg-mi300x-default", "", profile="mi300x")
c("cg-mi300x-prefill-full", "--cuda-graph-backend-prefill full", profile="mi300x")
import sys
q = shlex.quote
which = sys.argv[1]
for d in cases:
    # JSON needs shell quoting, which the placeholder shell reader does not do yet.
    if "{" in d["cmd"]:
        head, _, js = d["cmd"].partition("--cuda-graph-config ")
        js_word, _, rest = js.partition(" ")
        d = dict(d, cmd=head + "--cuda-graph-config " + q(js_word) + (" " + rest if rest else ""))
        if which != "pending": print(json.dumps(d))
    elif which != "pending":
        print(json.dumps(d))

"""The kernel tools of a multi-turn verl rollout, backed by an `nkiagent serve` episode.

verl's tool interface (``verl.tools.base_tool.BaseTool``) has async ``create``, ``execute``,
``calc_reward`` and ``release`` methods keyed by an instance id. This class offers the same
methods without importing verl (not installable here); in a verl setup, subclass both::

    class NkiTool(VerlKernelTool, BaseTool): ...

One instance drives one server episode; every tool call of the model is forwarded as one step,
so the tool results are exactly what `nkiagent solve` would show.
"""

import json

from .client import Client


class VerlKernelTool:
    def __init__(self, config=None, tool_schema=None, client=None):
        self.config = config or {}
        self.tool_schema = tool_schema
        self.client = client or Client(self.config.get("url"), self.config.get("token"))
        self._episodes = {}  # instance id -> {"id", "reward", "done"}

    async def create(self, instance_id=None, ground_truth=None, **kwargs):
        e = self.client.start_episode(ground_truth, mode="agent", max_turns=int(self.config.get("max_turns", 10)),
                                      reward=self.config.get("reward", "binary"))
        instance_id = instance_id or e["episode_id"]
        self._episodes[instance_id] = {"id": e["episode_id"], "reward": 0.0, "done": False}
        return instance_id

    async def execute(self, instance_id, parameters, **kwargs):
        """`parameters` are the tool call's arguments ({"code": ...}); returns (text, reward, metrics)."""
        ep = self._episodes[instance_id]
        name = kwargs.get("name") or (self.tool_schema or {}).get("function", {}).get("name", "verify_kernel")
        call = {"id": "call_0", "type": "function", "function": {"name": name, "arguments": json.dumps(parameters)}}
        if ep["done"]:
            return "the episode is over", ep["reward"], {"done": True}
        step = self.client.step(ep["id"], {"role": "assistant", "content": "", "tool_calls": [call]})
        text = "\n".join(m["content"] for m in step["messages"] if m["role"] == "tool")
        if step["done"]:
            ep["done"], ep["reward"] = True, float(step["reward"])
        return text, 0.0, {"done": step["done"], "result": step.get("result")}

    async def calc_reward(self, instance_id, **kwargs):
        return self._episodes[instance_id]["reward"]

    async def release(self, instance_id, **kwargs):
        ep = self._episodes.pop(instance_id, None)
        if ep and not ep["done"]:
            try:
                self.client.end_episode(ep["id"])
            except Exception:  # expired already: nothing to release
                pass

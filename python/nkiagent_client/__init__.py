"""Thin Python adapters for `nkiagent serve` (docs/serve.md, docs/training.md).

Standard library only, so they install into any trainer environment:

* ``Client``: the HTTP API (tasks, prompts, compile, verify, reward, episodes).
* ``trl_reward_func``: a reward function with TRL ``GRPOTrainer``'s ``reward_funcs`` signature.
* ``verl_compute_score``: verl's ``compute_score(data_source, solution_str, ground_truth, extra_info)``.
* ``VerlKernelTool``: the compile/verify tools of a multi-turn verl rollout, through an episode.
"""

from .client import Client, ServeError
from .trl_reward import make_trl_reward_func, trl_reward_func
from .verl_reward import compute_score as verl_compute_score
from .verl_tool import VerlKernelTool

__all__ = ["Client", "ServeError", "make_trl_reward_func", "trl_reward_func", "verl_compute_score", "VerlKernelTool"]

"""verl's custom reward function: ``custom_reward_function.path`` = this file,
``custom_reward_function.name`` = ``compute_score``.

verl's reward manager calls ``compute_score(data_source, solution_str, ground_truth, extra_info)``
for each response; ``ground_truth`` is the dataset's ``reward_model.ground_truth`` field, which
holds the task id here. The server comes from $NKIAGENT_SERVE_URL (and $NKIAGENT_SERVE_TOKEN);
$NKIAGENT_REWARD picks "binary" (default) or "graded".
"""

import os

try:  # loaded as part of the package
    from .client import Client
except ImportError:  # loaded by file path, as verl does
    import importlib.util
    import pathlib

    _spec = importlib.util.spec_from_file_location("nkiagent_client_client", pathlib.Path(__file__).with_name("client.py"))
    _mod = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_mod)
    Client = _mod.Client

_client = None


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    global _client
    if _client is None:
        _client = Client()
    reward = kwargs.get("reward") or os.environ.get("NKIAGENT_REWARD", "binary")
    task = ground_truth if isinstance(ground_truth, str) else (extra_info or {}).get("task_id")
    return float(_client.reward(task, completion=solution_str, reward=reward)["reward"])

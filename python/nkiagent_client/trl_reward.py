"""A reward function for TRL's GRPOTrainer (`reward_funcs=[...]`).

GRPOTrainer calls each reward function with keyword arguments: ``prompts``, ``completions``,
``completion_ids`` and every other column of the dataset as a list (one entry per completion),
plus ``trainer_state`` in recent versions; it expects one float per completion. Completions are
strings (standard datasets) or lists of messages (conversational datasets). The dataset needs a
``task_id`` column naming the benchmark task of each prompt.
"""

from .client import Client


def _text(completion):
    if isinstance(completion, str):
        return completion
    # Conversational: [{"role": "assistant", "content": "..."}, ...]; the last assistant turn.
    for message in reversed(completion or []):
        if isinstance(message, dict) and message.get("role") == "assistant":
            return message.get("content") or ""
    return ""


def make_trl_reward_func(reward="binary", client=None, task_column="task_id"):
    """A reward function bound to one server and one reward scheme ("binary" or "graded")."""
    client = client or Client()

    def nkiagent_reward(prompts=None, completions=None, **kwargs):
        tasks = kwargs.get(task_column)
        if tasks is None:
            raise KeyError(f"the dataset has no '{task_column}' column naming each prompt's task")
        items = [{"task": t, "completion": _text(c)} for t, c in zip(tasks, completions)]
        return [float(r["reward"]) for r in client.rewards(items, reward=reward)]

    nkiagent_reward.__name__ = f"nkiagent_{reward}_reward"  # TRL logs rewards under this name
    return nkiagent_reward


def trl_reward_func(prompts=None, completions=None, **kwargs):
    """The paper's binary reward (+1 pass, -0.5 otherwise) from $NKIAGENT_SERVE_URL."""
    return make_trl_reward_func("binary")(prompts=prompts, completions=completions, **kwargs)

"""A small client for `nkiagent serve` (urllib only)."""

import json
import os
import urllib.error
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8080"


class ServeError(RuntimeError):
    """A JSON error from the server: HTTP status, stable code, message."""

    def __init__(self, status, code, message):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class Client:
    """`base_url` defaults to $NKIAGENT_SERVE_URL, `token` to $NKIAGENT_SERVE_TOKEN."""

    def __init__(self, base_url=None, token=None, timeout=600):
        self.base_url = (base_url or os.environ.get("NKIAGENT_SERVE_URL") or DEFAULT_URL).rstrip("/")
        self.token = token if token is not None else os.environ.get("NKIAGENT_SERVE_TOKEN")
        self.timeout = timeout

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                err = json.loads(raw)["error"]
            except (ValueError, KeyError, TypeError):
                err = {"code": "http_error", "message": raw.decode(errors="replace")[:500]}
            raise ServeError(e.code, err.get("code"), err.get("message")) from None

    def health(self):
        return self._call("GET", "/v1/health")

    def tasks(self):
        return self._call("GET", "/v1/tasks")["tasks"]

    def prompt(self, task, mode="agent"):
        return self._call("GET", f"/v1/tasks/{task}/prompt?mode={mode}")

    def compile(self, task, code):
        return self._call("POST", "/v1/compile", {"task": task, "code": code})

    def verify(self, task, code):
        return self._call("POST", "/v1/verify", {"task": task, "code": code})

    def reward(self, task, code=None, reward="binary", completion=None):
        """One reward; pass the kernel as `code`, or a model's raw `completion` to extract it from."""
        item = {"task": task, "reward": reward}
        item.update({"code": code} if code is not None else {"completion": completion})
        return self._call("POST", "/v1/reward", item)

    def rewards(self, items, reward="binary"):
        """A batch: items are dicts with "task" and "code" or "completion"."""
        return self._call("POST", "/v1/reward", {"reward": reward, "items": list(items)})["results"]

    def start_episode(self, task, mode="agent", max_turns=10, reward="binary"):
        return self._call("POST", "/v1/episodes", {"task": task, "mode": mode, "max_turns": max_turns, "reward": reward})

    def step(self, episode_id, message):
        """`message` is the model's assistant message in OpenAI chat format."""
        return self._call("POST", f"/v1/episodes/{episode_id}/step", {"message": message})

    def end_episode(self, episode_id):
        return self._call("DELETE", f"/v1/episodes/{episode_id}")

#!/usr/bin/env python3
"""Derives src/nki_current/api_versions.def: in which NKI versions (0.2 .. 0.6) each public name
of the current `nki` dialect exists.

Source: the API stubs nki/api/nki/{,language/,isa/,collectives/}__init__.py of aws-neuron-sdk at
the release commit of each SDK (2.28 = NKI 0.2, 2.29 = 0.3, 2.30 = 0.4, 2.31 = 0.5, 2.32 = 0.6),
corrected by release-notes/components/nki.rst and nki/migration/index.rst where the stubs of a
release are incomplete (OVERRIDES below, each with its citation). Run by hand with a mirror of
the docs repository (the generated file is checked in; CI does not need the mirror):

    /usr/bin/python3 tools/api_coverage/derive_api_versions.py MIRROR.git > src/nki_current/api_versions.def
"""
import ast
import subprocess
import sys

RELEASES = [(2, "86a92868", "2.28"), (3, "539a73c5", "2.29"), (4, "3afa0fdf", "2.30"), (5, "ee7d6e00", "2.31"),
            (6, "a3247f5b", "2.32")]
MODULES = {"nki": "nki/api/nki/__init__.py", "nl": "nki/api/nki/language/__init__.py",
           "nisa": "nki/api/nki/isa/__init__.py", "nki.collectives": "nki/api/nki/collectives/__init__.py"}
# Public names of the stubs that are documentation helpers, not kernel APIs.
SKIP_CLASSES = {"NKIObject", "NkiValidationError", "DType"}
# NkiTensor members of the 0.4 stubs that expose the CPU simulator's internals, not kernel APIs.
SKIP_MEMBERS = {"device_value", "sim_value", "is_identity"}

# name -> (first, last, renamed_from, source). last 0 = still at 0.6.
RN = "release-notes/components/nki.rst"
MG = "nki/migration/index.rst"
OVERRIDES = {
    "nisa.tensor_copy_dynamic_src": (2, 3, "", RN + " 0.3.0 deprecated, 0.4.0 removed; " + MG + " 0.3->0.4"),
    "nisa.tensor_copy_dynamic_dst": (2, 3, "", RN + " 0.3.0 deprecated, 0.4.0 removed; " + MG + " 0.3->0.4"),
    "nl.dynamic_range": (2, 0, "", MG + " 0.1->0.2 'Dynamic control flow' (deprecated in 0.6: " + RN + " 0.6.0)"),
    "nl.fori_loop": (6, 0, "nl.dynamic_range", RN + " 0.6.0 New Features"),
    "nl.while_loop": (6, 0, "", RN + " 0.6.0 New Features"),
    "nl.NkiTensor.view": (2, 0, "", RN + " 0.2.0 'tensor.view method'"),
    "nl.NkiTensor.ap": (2, 0, "", MG + " 0.1->0.2 'Scalar dynamic access'; pre-existing per " + RN + " 0.5.0"),
    "nl.NkiTensor.reshape": (2, 0, "", "pre-existing per " + RN + " 0.5.0 (documented from 0.4)"),
    "nl.NkiTensor.get_pattern": (2, 0, "", "pre-existing per " + RN + " 0.5.0 (documented from 0.4)"),
    "nisa.nc_n_gather": (2, 0, "nl.gather_flattened", "release-notes/prev/2.27.0/nki.rst"),
    "nisa.topk": (6, 0, "", RN + " 0.6.0 New Features"),
    "nki.collectives.all_gather_v": (6, 0, "", RN + " 0.6.0 New Features"),
    "nki.collectives.all_to_all_v": (3, 0, "", RN + " 0.3.0 New Features"),
    "nki.typing": (3, 0, "", RN + " 0.3.0 'nki.typing module'"),
    "nki.simulate": (3, 0, "", RN + " 0.3.0 'NKI CPU Simulator'"),
    "nl.abs_max": (4, 0, "", RN + " 0.4.0 New Features"),
    "nl.abs_min": (4, 0, "", RN + " 0.4.0 New Features"),
    "nl.prelu": (4, 0, "", RN + " 0.4.0 New Features"),
    "nl.bypass": (4, 0, "", RN + " 0.4.0 New Features"),
    "nisa.activate2": (4, 0, "", RN + " 0.4.0 New Features"),
    "nl.float8_e8m0fnu": (5, 0, "", RN + " 0.5.0 New Features"),
    "nl.float8_e4m3fn": (2, 0, "", RN + " 0.2.0 New Features"),
    "nl.no_reorder": (2, 0, "", RN + " 0.2.0 'no_reorder blocks'"),
    "nl.copy": (3, 0, "", RN + " 0.3.0 'nki.language APIs' (stable in 0.6.0)"),
    "nl.load": (3, 0, "", RN + " 0.3.0 'nki.language APIs'; " + MG + " 0.1->0.2: removed in 0.2"),
    "nl.store": (3, 0, "", RN + " 0.3.0 'nki.language APIs'; " + MG + " 0.1->0.2: removed in 0.2"),
}
# The 0.5.0 view primitives (RN 0.5.0 'New NkiTensor view primitives').
for m in ["slice", "select", "permute", "broadcast", "expand_dim", "squeeze_dim", "reshape_dim", "flatten_dims",
          "rearrange", "vector_select", "is_contiguous", "is_indirect", "indirect", "reinterpret_cast"]:
    OVERRIDES["nl.NkiTensor." + m] = (5, 0, "", RN + " 0.5.0 'New NkiTensor view primitives'")
# Arguments whose availability the release notes state (api "fn(arg=)").
ARGS = {
    "nisa.nc_matmul(accumulate=)": (3, 0, "", RN + " 0.3.0 'Matmul accumulation'"),
    "nisa.nc_matmul(is_moving_onezero=)": (2, 0, "is_moving_zero", RN + " 0.2.0 Breaking Changes"),
    "nisa.dma_copy(dst_rmw_op=)": (2, 2, "", RN + " 0.3.0 Breaking Changes (use nisa.dma_compute)"),
    "nisa.dma_copy(unique_indices=)": (2, 2, "", RN + " 0.3.0 Breaking Changes (use nisa.dma_compute)"),
    "nisa.dma_compute(oob_mode=)": (4, 0, "", RN + " 0.4.0 New Features"),
    "nisa.register_move(src=)": (3, 0, "imm", RN + " 0.3.0 Breaking Changes"),
    "nisa.sendrecv(dma_engine=)": (3, 0, "use_gpsimd_dma", RN + " 0.3.0 Breaking Changes"),
    "nl.ndarray(address=)": (3, 0, "", RN + " 0.3.0 'Address placement'"),
    "nisa.tensor_scalar_reduce(reduce_res=None)": (6, 0, "", RN + " 0.6.0 New Features"),
}


def names_at(repo, commit):
    out = {}
    for mod, path in MODULES.items():
        try:
            src = subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"], capture_output=True, text=True,
                                 check=True).stdout
        except subprocess.CalledProcessError:
            continue
        for node in ast.parse(src).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                out[f"{mod}.{node.name}"] = "function"
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_") and node.name not in SKIP_CLASSES:
                out[f"{mod}.{node.name}"] = "class"
                if node.name == "NkiTensor":
                    for b in node.body:
                        if isinstance(b, ast.FunctionDef) and not b.name.startswith("_") and b.name not in SKIP_MEMBERS:
                            out[f"{mod}.NkiTensor.{b.name}"] = "method"
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                tg = node.targets[0] if isinstance(node, ast.Assign) else node.target
                if isinstance(tg, ast.Name) and not tg.id.startswith("_"):
                    out[f"{mod}.{tg.id}"] = "constant"
    return out


def main():
    repo = sys.argv[1]
    seen = {}
    kinds = {}
    for minor, commit, sdk in RELEASES:
        for name, kind in names_at(repo, commit).items():
            seen.setdefault(name, []).append(minor)
            kinds[name] = kind
    rows = []
    for name in sorted(set(seen) | set(OVERRIDES)):
        if name in OVERRIDES:
            first, last, renamed, source = OVERRIDES[name]
        else:
            vs = seen[name]
            first, last = min(vs), (0 if max(vs) == 6 else max(vs))
            commit_sdk = {m: s for m, _, s in RELEASES}
            source = f"API stubs at SDK {commit_sdk[first]}" + (f" .. {commit_sdk[last]}" if last else "")
            renamed = ""
        kind = kinds.get(name, "module" if name == "nki.typing" else
                         "method" if name.startswith("nl.NkiTensor.") else "function")
        rows.append((name, kind, first, last, renamed, source))
    for api, (first, last, renamed, source) in ARGS.items():
        rows.append((api, "argument", first, last, renamed, source))
    print("// Generated by tools/api_coverage/derive_api_versions.py from the aws-neuron-sdk API stubs and")
    print("// release notes (see that script); do not edit by hand.")
    print("// NKI_API(api, kind, first, last, renamed_from, source): present in NKI 0.<first> .. 0.<last>")
    print("// (last 0: still in 0.6).")
    for name, kind, first, last, renamed, source in rows:
        print(f'NKI_API("{name}", "{kind}", {first}, {last}, "{renamed}", "{source}")')


if __name__ == "__main__":
    main()

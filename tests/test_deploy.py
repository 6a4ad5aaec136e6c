"""The shipped deployment files: versioned images serving HTTP, the state key from a secret, in-cluster names in any
namespace, Kubernetes' recommended labels, probes and a disruption budget, compose on loopback, nginx naming no
replica, and an image context without build outputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from horologe import __version__
from horologe.cli import build_parser
from horologe.http.hosts import AccessPolicy
from release.identity import identity
from release.image import DOCKERFILE, read

ROOT = Path(__file__).parents[1]
IMAGE = f"{identity().image}:{__version__}"
STABLE = {"app.kubernetes.io/name": "horologe", "app.kubernetes.io/instance": "horologe"}


def k8s(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "deploy" / "k8s" / name).read_text(encoding="utf-8"))
    return loaded


def container_env() -> list[dict[str, Any]]:
    env: list[dict[str, Any]] = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"][0]["env"]
    return env


def test_images_carry_the_package_version() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert {compose["services"][name]["image"] for name in ("horologe-1", "horologe-2")} == {IMAGE}
    assert k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"][0]["image"] == IMAGE


def test_every_pod_reads_the_state_key_from_the_secret_and_offers_the_memory_tools() -> None:
    env = {entry["name"]: entry for entry in container_env()}
    assert env["HOROLOGE_STATE__KEYS"]["valueFrom"]["secretKeyRef"] == {"name": "horologe-state", "key": "keys"}
    assert env["HOROLOGE_TOOLSETS"]["value"] == "default,memory"


@pytest.mark.parametrize("namespace", ["default", "time-prod"])
def test_in_cluster_names_are_allowed_in_whatever_namespace_the_pods_run(namespace: str) -> None:
    names = [entry["name"] for entry in container_env()]
    env = {entry["name"]: entry for entry in container_env()}
    # Kubernetes expands $(VAR) from variables defined earlier in the list: the namespace comes from the pod.
    assert names.index("POD_NAMESPACE") < names.index("HOROLOGE_HTTP__ALLOWED_HOSTS")
    assert env["POD_NAMESPACE"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.namespace"
    hosts = json.loads(env["HOROLOGE_HTTP__ALLOWED_HOSTS"]["value"].replace("$(POD_NAMESPACE)", namespace))
    policy = AccessPolicy.for_bind("0.0.0.0", hosts, ())
    for host in ("horologe:8080", f"horologe.{namespace}:8080", f"horologe.{namespace}.svc.cluster.local:8080"):
        assert policy.host_allowed(host), host
    assert policy.host_allowed("time.example.com") and not policy.host_allowed("horologe.elsewhere:8080")


def test_the_ingress_routes_its_host_to_the_service() -> None:
    ingress = k8s("ingress.yaml")
    (rule,) = ingress["spec"]["rules"]
    backend = rule["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": k8s("service.yaml")["metadata"]["name"], "port": {"name": "http"}}
    hosts = json.loads(next(e for e in container_env() if e["name"] == "HOROLOGE_HTTP__ALLOWED_HOSTS")["value"])
    assert rule["host"] in hosts


def test_compose_and_kubernetes_run_the_image_as_an_http_server() -> None:
    entrypoint = read(DOCKERFILE.read_text(encoding="utf-8")).entrypoint
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    container = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"][0]
    for arguments in (compose["services"]["horologe-1"]["command"], container["args"]):
        command = [*entrypoint, *arguments]
        assert command[0] == "horologe" and build_parser().parse_args(command[1:]).transport == "http"


def test_kubernetes_objects_carry_the_recommended_labels_and_select_by_the_stable_ones() -> None:
    deployment = k8s("deployment.yaml")
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert pod_labels["app.kubernetes.io/version"] == deployment["metadata"]["labels"]["app.kubernetes.io/version"]
    assert pod_labels["app.kubernetes.io/version"] == __version__
    assert deployment["spec"]["selector"]["matchLabels"] == STABLE and STABLE.items() <= pod_labels.items()
    assert k8s("service.yaml")["spec"]["selector"] == STABLE
    for name in ("deployment.yaml", "service.yaml", "hpa.yaml", "ingress.yaml", "pdb.yaml"):
        assert STABLE.items() <= k8s(name)["metadata"]["labels"].items(), name


def test_a_disruption_budget_keeps_a_replica_serving_through_a_drain() -> None:
    budget = k8s("pdb.yaml")
    assert budget["kind"] == "PodDisruptionBudget" and budget["spec"]["selector"]["matchLabels"] == STABLE
    assert budget["spec"]["minAvailable"] == 1 < k8s("hpa.yaml")["spec"]["minReplicas"]


def test_compose_publishes_on_loopback_unless_told() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    published = [port for service in compose["services"].values() for port in service.get("ports", [])]
    assert published == ["${HOROLOGE_PUBLISH:-127.0.0.1}:8080:8080"]  # docker compose substitutes the default


def test_nginx_sends_clients_no_internal_header() -> None:
    template = (ROOT / "deploy" / "nginx" / "horologe.conf.template").read_text(encoding="utf-8")
    assert "add_header" not in template and "$upstream_addr" not in template


def test_the_image_context_leaves_out_build_outputs_and_ci() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".ci", "dist", "build", ".venv", ".tools", ".git", "state-keys.json"} <= set(ignored)


def test_a_slow_first_start_is_not_killed_by_liveness() -> None:
    container = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"][0]
    startup = container["startupProbe"]
    assert startup["httpGet"] == container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 60

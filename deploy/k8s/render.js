// @ts-check
/**
 * Renders a kustomization the way `kubectl kustomize` does for the features our manifests use (resources,
 * components, namespace, labels, images, JSON 6902 patches with targets), and validates every object
 * against the Kubernetes JSON schemas (kubernetes-models). Used by the manifest tests; also handy as
 * `node deploy/k8s/render.js deploy/k8s/overlays/prod` where no kubectl is at hand.
 */
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { applyPatch } = require('fast-json-patch');

const MODELS = {
  'v1/ConfigMap': () => require('kubernetes-models/v1').ConfigMap,
  'v1/Secret': () => require('kubernetes-models/v1').Secret,
  'v1/Service': () => require('kubernetes-models/v1').Service,
  'apps/v1/Deployment': () => require('kubernetes-models/apps/v1').Deployment,
  'batch/v1/Job': () => require('kubernetes-models/batch/v1').Job,
  'policy/v1/PodDisruptionBudget': () => require('kubernetes-models/policy/v1').PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': () =>
    require('kubernetes-models/autoscaling/v2').HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': () => require('kubernetes-models/networking.k8s.io/v1').Ingress,
  'gateway.networking.k8s.io/v1/HTTPRoute': () =>
    require('@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1').HTTPRoute,
};

function readYamlDocuments(file) {
  return YAML.parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => doc.toJS())
    .filter(Boolean);
}

function kustomizationOf(dir) {
  return YAML.parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'));
}

function podSpecs(object) {
  if (object.kind === 'Deployment' || object.kind === 'Job') return [object.spec.template.spec];
  return [];
}

/** @returns {any[]} the rendered objects of the kustomization in `dir` */
function render(dir) {
  const k = kustomizationOf(dir);
  let objects = [];
  for (const resource of k.resources ?? []) {
    const target = path.join(dir, resource);
    if (!existsSync(target)) throw new Error(`${dir}: resource ${resource} does not exist`);
    objects.push(...(statSync(target).isDirectory() ? render(target) : readYamlDocuments(target)));
  }
  const patches = [...(k.patches ?? [])];
  for (const component of k.components ?? []) {
    const componentDir = path.join(dir, component);
    const c = kustomizationOf(componentDir);
    if (c.kind !== 'Component') throw new Error(`${componentDir} is not a Component`);
    for (const resource of c.resources ?? [])
      objects.push(...readYamlDocuments(path.join(componentDir, resource)));
    patches.push(...(c.patches ?? []));
  }
  for (const { pairs } of k.labels ?? []) {
    for (const object of objects) object.metadata.labels = { ...object.metadata.labels, ...pairs };
  }
  if (k.namespace) for (const object of objects) object.metadata.namespace = k.namespace;
  for (const image of k.images ?? []) {
    for (const spec of objects.flatMap(podSpecs)) {
      for (const container of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
        const [name] = container.image.split(':');
        if (name === image.name) container.image = `${image.newName ?? name}:${image.newTag}`;
      }
    }
  }
  for (const { target, patch } of patches) {
    const operations = YAML.parse(patch);
    const matched = objects.filter(
      (o) => (!target.kind || o.kind === target.kind) && (!target.name || o.metadata.name === target.name),
    );
    if (matched.length === 0)
      throw new Error(`${dir}: patch target ${JSON.stringify(target)} matches nothing`);
    objects = objects.map((o) =>
      matched.includes(o) ? applyPatch(o, operations, true, false).newDocument : o,
    );
  }
  return objects;
}

/** Throws with the object's kind and name when it does not match its Kubernetes schema. */
function validate(object) {
  const key = `${object.apiVersion}/${object.kind}`;
  const model = MODELS[key];
  if (!model) throw new Error(`No schema for ${key}`);
  const Model = model();
  try {
    new Model(object).validate();
  } catch (err) {
    throw new Error(`${key} ${object.metadata?.name}: ${err instanceof Error ? err.message : err}`);
  }
}

module.exports = { render, validate };

if (require.main === module) {
  const objects = render(path.resolve(process.argv[2] ?? path.join(__dirname, 'base')));
  objects.forEach(validate);
  process.stdout.write(objects.map((o) => YAML.stringify(o)).join('---\n'));
}

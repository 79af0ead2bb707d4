import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import { loadConfig } from '../../src/config/config.js';
import { ROOT } from '../helpers/spawn.js';

/**
 * The scale-out deployment files, checked statically (no Docker or Kubernetes here):
 * docker/compose.scale.yaml and docker/nginx.scale.conf, and the manifests under deploy/k8s.
 */
// oxlint-disable-next-line typescript/no-explicit-any -- manifests of any shape, read by path
type Obj = Record<string, any>;
const yamlFile = (path: string): Obj => {
  const doc = parseDocument(readFileSync(join(ROOT, path), 'utf8'), { strict: true });
  if (doc.errors.length) throw new Error(`${path}: ${doc.errors.join('; ')}`);
  return doc.toJS() as Obj;
};
/** Compose's `${VAR:-default}` with the defaults. */
const interpolate = (env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, (_, fallback: string) => fallback),
    ]),
  );

describe('docker/compose.scale.yaml', () => {
  const compose = yamlFile('docker/compose.scale.yaml');
  const { services } = compose as { services: Record<string, Obj> };

  it('runs several API replicas behind a reverse proxy, with MySQL 8 and Redis', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'db', 'migrate', 'proxy', 'redis']);
    expect(services.db.image).toMatch(/^mysql:8\./);
    expect(services.redis.image).toMatch(/^redis:7/);
    expect(services.api.deploy.replicas).toBeGreaterThanOrEqual(2);
    // Replicas share no host port: only the proxy publishes one.
    expect(services.api.ports).toBeUndefined();
    expect(services.proxy.ports).toEqual(['8080:80']);
    expect(services.api.depends_on).toEqual({
      db: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      migrate: { condition: 'service_completed_successfully' },
    });
    expect(services.db.healthcheck).toBeDefined();
    expect(services.redis.healthcheck).toBeDefined();
    // A replica is healthy when ready, and it is given time to drain when stopped.
    expect(services.api.healthcheck.test.join(' ')).toContain('/health/ready');
    expect(services.api.environment.SHUTDOWN_DELAY_MS).toMatch(/^\d+$/);
  });

  it('gives the API a configuration the application accepts: MySQL, Redis, a trusted proxy, no per-replica migrations', () => {
    const config = loadConfig(
      interpolate({ ...services.api.environment, ADMIN_PASSWORD: 'a passphrase of my own' }),
    );
    expect(config.database.type).toBe('mysql');
    expect(config.database.type !== 'sqlite' && config.database.host).toBe('db');
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.workers).toBeGreaterThanOrEqual(1);
    expect(config.trustProxy).not.toBe(false);
    expect(config.migrationsRun).toBe(false);
    expect(services.migrate.environment.DATABASE_URL).toBe(services.api.environment.DATABASE_URL);
    expect(services.migrate.command).toEqual(['node', 'dist/migrate.js', 'run']);
  });

  it('mounts an nginx configuration that forwards to the api service with X-Forwarded-For', () => {
    const [mount] = services.proxy.volumes as string[];
    const source = mount.split(':')[0];
    const conf = readFileSync(join(ROOT, 'docker', source), 'utf8');
    expect(conf).toMatch(/server api:3000\b/);
    expect(conf).toMatch(/proxy_pass http:\/\/api;/);
    expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });
});

describe('deploy/k8s', () => {
  const manifests = readdirSync(join(ROOT, 'deploy/k8s'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(ROOT, 'deploy/k8s', f), 'utf8')).map((d) => {
        if (d.errors.length) throw new Error(`deploy/k8s/${f}: ${d.errors.join('; ')}`);
        return d.toJS() as Obj;
      }),
    );
  const find = (kind: string) => manifests.filter((m) => m.kind === kind);

  it('has a Deployment, a Service, a HorizontalPodAutoscaler and a migration Job', () => {
    expect(find('Deployment')).toHaveLength(1);
    expect(find('Service')).toHaveLength(1);
    expect(find('HorizontalPodAutoscaler')).toHaveLength(1);
    expect(find('Job')).toHaveLength(1);
    for (const m of manifests)
      expect(m.apiVersion).toMatch(/^(v1|apps\/v1|autoscaling\/v2|batch\/v1)$/);
  });

  it('probes /health/ready and /health/live on the container port, and the Service and HPA point at the Deployment', () => {
    const [deployment] = find('Deployment');
    const pod = deployment.spec.template;
    expect(deployment.spec.selector.matchLabels).toEqual(pod.metadata.labels);
    const [container] = pod.spec.containers;
    const port = container.ports.find((p: Obj) => p.name === 'http');
    expect(port.containerPort).toBe(3000);
    expect(container.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    for (const probe of ['livenessProbe', 'startupProbe']) {
      expect(container[probe].httpGet).toEqual({ path: '/health/live', port: 'http' });
    }
    const env = Object.fromEntries(
      container.env.map((e: Obj) => [e.name, e.value ?? `secret:${e.valueFrom.secretKeyRef.key}`]),
    );
    expect(env).toMatchObject({
      SHUTDOWN_DELAY_MS: expect.stringMatching(/^\d+$/),
      METRICS_PORT: '9464',
      DATABASE_URL: 'secret:DATABASE_URL',
      REDIS_URL: 'secret:REDIS_URL',
      MIGRATIONS_RUN: 'false',
    });
    // The literal settings are ones the application accepts.
    const literal = Object.fromEntries(
      Object.entries(env).filter(([, v]) => !String(v).startsWith('secret:')),
    ) as Record<string, string>;
    expect(() =>
      loadConfig({
        ...literal,
        DATABASE_URL: 'mysql://u:p@mysql:3306/calendar',
        REDIS_URL: 'redis://redis:6379',
        ADMIN_PASSWORD: 'a passphrase of my own',
      }),
    ).not.toThrow();

    const [service] = find('Service');
    expect(service.spec.selector).toEqual(pod.metadata.labels);
    expect(service.spec.ports[0].targetPort).toBe('http');
    const [hpa] = find('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: deployment.metadata.name,
    });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    const [job] = find('Job');
    expect(job.spec.template.spec.containers[0].command).toEqual([
      'node',
      'dist/migrate.js',
      'run',
    ]);
    expect(existsSync(join(ROOT, 'src/migrate.ts'))).toBe(true);
  });
});

import { Inject, Injectable } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { cacheTotals } from './cache-stats.js';

/** Seconds: from a cached answer (well under a millisecond) to a request that times out. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

type Labels<L extends string> = Partial<Record<L, string | number>>;

/**
 * The service's Prometheus metrics, in one registry per application (a test builds several).
 * The metric names are part of the operator's interface (docs/operations.md, the Grafana
 * dashboard): rename none without both.
 *
 * Features count through the fields below, or define their own with counter(), gauge() and
 * histogram() (get-or-create, so a feature can ask again for the same metric). Counting costs a
 * label look-up and an addition whether or not anyone scrapes; with METRICS_PORT unset nobody
 * ever reads the figures, and the per-request and per-query hooks are not installed at all.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  /** METRICS_PORT is set: the endpoint serves this registry. */
  readonly enabled: boolean;

  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly httpInFlight: Gauge;
  readonly queryDuration: Histogram<'kind' | 'pool'>;
  readonly loginRefusals: Counter<'limit'>;
  readonly scheduledPublications: Counter;
  readonly importedRecords: Counter<'source' | 'kind' | 'outcome'>;
  readonly importRequests: Counter<'source' | 'attempt'>;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'metrics'>) {
    this.enabled = config.metrics !== null;
    if (this.enabled) collectDefaultMetrics({ register: this.registry });

    this.httpRequests = this.counter(
      'http_requests_total',
      'HTTP requests answered, by route template, method and status code.',
      ['method', 'route', 'status'],
    );
    this.httpDuration = this.histogram(
      'http_request_duration_seconds',
      'Time from receiving an HTTP request to the end of its answer.',
      ['method', 'route', 'status'],
      HTTP_BUCKETS,
    );
    this.httpInFlight = this.gauge('http_requests_in_flight', 'HTTP requests being answered.');
    this.queryDuration = this.histogram(
      'cal_db_query_duration_seconds',
      'Database statements, by kind (select, insert, update, delete, other) and pool.',
      ['kind', 'pool'],
      QUERY_BUCKETS,
    );
    this.loginRefusals = this.counter(
      'cal_login_throttle_refusals_total',
      'Logins refused with 429 by the login throttle, by the limit reached.',
      ['limit'],
    );
    this.scheduledPublications = this.counter(
      'cal_scheduled_publications_total',
      'Moments a scheduled record reached its publication date while this server ran.',
    );
    this.importedRecords = this.counter(
      'cal_import_records_total',
      'Records an import handled, by importer, kind and outcome (created, updated, unchanged, skipped, notModified).',
      ['source', 'kind', 'outcome'],
    );
    this.importRequests = this.counter(
      'cal_import_requests_total',
      'HTTP requests an import sent to its source, by source and attempt (first, retry).',
      ['source', 'attempt'],
    );
    this.cacheMetrics();
  }

  counter<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    options: Partial<CounterConfiguration<L>> = {},
  ): Counter<L> {
    return (
      (this.registry.getSingleMetric(name) as Counter<L> | undefined) ??
      new Counter<L>({ name, help, labelNames, registers: [this.registry], ...options })
    );
  }

  gauge<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    options: Partial<GaugeConfiguration<L>> = {},
  ): Gauge<L> {
    return (
      (this.registry.getSingleMetric(name) as Gauge<L> | undefined) ??
      new Gauge<L>({ name, help, labelNames, registers: [this.registry], ...options })
    );
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    buckets: number[] = HTTP_BUCKETS,
    options: Partial<HistogramConfiguration<L>> = {},
  ): Histogram<L> {
    return (
      (this.registry.getSingleMetric(name) as Histogram<L> | undefined) ??
      new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry], ...options })
    );
  }

  /** Adds one to `counter` (a shorthand for features that count an event). */
  count<L extends string>(counter: Counter<L>, labels?: Labels<L>, by = 1): void {
    if (labels) counter.inc(labels, by);
    else counter.inc(by);
  }

  /** What an import run did, once it is over (`source`: the importer, tec or ics). */
  countImport(
    source: string,
    counts: Record<string, object>,
    http: { requests: number; retries: number },
  ): void {
    for (const [kind, outcomes] of Object.entries(counts)) {
      for (const [outcome, n] of Object.entries(outcomes as Record<string, number>)) {
        if (n > 0) this.importedRecords.inc({ source, kind, outcome }, n);
      }
    }
    this.importRequests.inc({ source, attempt: 'first' }, http.requests - http.retries);
    this.importRequests.inc({ source, attempt: 'retry' }, http.retries);
  }

  /** The text Prometheus scrapes. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** The caches' own counters (cache-stats.ts), read at each scrape. */
  private cacheMetrics(): void {
    const reading = (field: 'hits' | 'misses' | 'evictions') =>
      function (this: Counter<'cache'>) {
        this.reset();
        for (const cache of cacheTotals()) this.inc({ cache: cache.name }, cache[field]);
      };
    this.counter('cal_cache_hits_total', 'Cache look-ups answered from the cache.', ['cache'], {
      collect: reading('hits'),
    });
    this.counter('cal_cache_misses_total', 'Cache look-ups that had to compute.', ['cache'], {
      collect: reading('misses'),
    });
    this.counter(
      'cal_cache_evictions_total',
      'Entries dropped to keep a cache within its bounds.',
      ['cache'],
      { collect: reading('evictions') },
    );
    this.gauge('cal_cache_entries', 'Entries held by a cache.', ['cache'], {
      collect() {
        for (const cache of cacheTotals()) this.set({ cache: cache.name }, cache.size);
      },
    });
  }
}

import type { NextFunction, Request, Response } from 'express';
import type { Counter, Histogram } from 'prom-client';
import { routeTemplates } from '../common/http/route-template.js';
import type { Metrics } from './metrics.js';

/** The `route` of requests no route answered (404s, early refusals): one series, not one per URL. */
const UNMATCHED_ROUTE = 'unmatched';

interface Series {
  requests: ReturnType<Counter<'method' | 'route' | 'status'>['labels']>;
  duration: ReturnType<Histogram<'method' | 'route' | 'status'>['labels']>;
}

/**
 * Counts every request once its answer is sent or its connection closes: by route template,
 * method and status, and its duration. The label children are kept by key, so a request costs
 * a map look-up, an addition and a bucket search.
 */
export function httpMetrics(metrics: Metrics, basePath: string) {
  const routeOf = routeTemplates(basePath);
  const series = new Map<string, Series>();
  const inFlight = metrics.httpInFlight;
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    inFlight.inc();
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      inFlight.dec();
      const route = routeOf(req) ?? UNMATCHED_ROUTE;
      const status = res.statusCode;
      const key = `${req.method} ${status} ${route}`;
      let s = series.get(key);
      if (!s) {
        const labels = { method: req.method, route, status: String(status) };
        s = {
          requests: metrics.httpRequests.labels(labels),
          duration: metrics.httpDuration.labels(labels),
        };
        series.set(key, s);
      }
      s.requests.inc();
      s.duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}

// Shared by the lab's k6 scripts. Runs on k6 v1.x and v2.x: plain ES modules, no remote imports.
import http from 'k6/http';
import { check } from 'k6';

export const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8082';
export const VARIANT = __ENV.VARIANT || 'unknown';
// The endpoint under test: /api for the variants; the mistakes gallery serves its cases under other paths.
export const API_PATH = __ENV.API_PATH || '/api';

// Percentiles the lab reports; k6 computes only avg/min/med/max/p(90)/p(95) unless asked.
export const summaryTrendStats = ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(95)', 'p(99)'];

export function callApi() {
  const res = http.get(`${BASE_URL}${API_PATH}`, { timeout: '30s' });
  check(res, { 'status is 200': (r) => r.status === 200 });
}

// With a settle phase, the statistics are those of the "measure" scenario only (a tagged sub-metric).
function metric(data, name) {
  return data.metrics[`${name}{scenario:measure}`] || data.metrics[name];
}

function trend(data, name, stat) {
  const m = metric(data, name);
  const values = m && (m.values || m); // v1 nests stats under "values"; tolerate a flat shape too
  return values && values[stat] !== undefined ? values[stat] : null;
}

function count(data, name) {
  const m = metric(data, name);
  if (!m) return 0;
  const values = m.values || m;
  return values.count !== undefined ? values.count : (values.passes !== undefined ? values.passes : 0);
}

// The compact summary the runner reads (SUMMARY_PATH), plus k6's full data beside it, plus one line on stdout.
// measureSeconds: the measure scenario's length, when a settle phase ran first (k6's own rate would divide by both).
export function summarize(data, scenario, measureSeconds) {
  const requests = count(data, 'http_reqs');
  const seconds = data.state && data.state.testRunDurationMs ? data.state.testRunDurationMs / 1000 : null;
  const failedMetric = metric(data, 'http_req_failed');
  const failed = failedMetric ? ((failedMetric.values || failedMetric).passes || 0) : 0;
  const summary = {
    variant: VARIANT,
    scenario: scenario,
    base_url: BASE_URL,
    duration_seconds: measureSeconds || seconds,
    requests: requests,
    requests_per_second: measureSeconds ? requests / measureSeconds : trend(data, 'http_reqs', 'rate'),
    p50_ms: trend(data, 'http_req_duration', 'p(50)'),
    p90_ms: trend(data, 'http_req_duration', 'p(90)'),
    p99_ms: trend(data, 'http_req_duration', 'p(99)'),
    max_ms: trend(data, 'http_req_duration', 'max'),
    errors: failed,
    dropped_iterations: count(data, 'dropped_iterations'),
    max_vus: trend(data, 'vus_max', 'value'),
  };
  const line = `${VARIANT} ${scenario}: ${requests} requests, ${(summary.requests_per_second || 0).toFixed(1)} req/s, ` +
    `p50 ${fmt(summary.p50_ms)} ms, p99 ${fmt(summary.p99_ms)} ms, ${failed} errors, ${summary.dropped_iterations} dropped\n`;
  const out = { stdout: line };
  const path = __ENV.SUMMARY_PATH;
  if (path) {
    out[path] = JSON.stringify(summary, null, 2);
    out[path.replace(/\.json$/, '') + '.k6.json'] = JSON.stringify(data, null, 2);
  }
  return out;
}

function fmt(v) {
  return v === null || v === undefined ? '-' : v.toFixed(1);
}

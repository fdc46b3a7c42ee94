// Shared by the lab's k6 scripts. Runs on k6 v1.x and v2.x: plain ES modules, no remote imports.
import http from 'k6/http';
import { Counter } from 'k6/metrics';

// The defaults below are for a run by hand. The lab's settings (.env) have no copy here: labSetting reads them from the
// file itself. The runner passes every value it needs (load/Loads.java), so a default that is no setting is either
// the runner's own (named where it is) or the script's, for a run by hand only.

// The reactive variant, on its port (plan.Variant); the runner passes its JVM's, compose and Kubernetes their Service's.
export const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8082';
export const VARIANT = __ENV.VARIANT || 'unknown';
// The endpoint under test: /api for the variants; the mistakes gallery serves its cases under other paths.
export const API_PATH = __ENV.API_PATH || '/api';
// Longer than any read timeout a variant is given, so that a slow answer is the variant's 504, never k6 giving up.
// k6's own, no knob: the runner never passes it, and its drain's patience (Loads.DRAIN_PATIENCE) and its buckets
// (LatencyBuckets, LAST_BUCKET_MS below) follow it.
const TIMEOUT = __ENV.TIMEOUT || '60s';

// A setting of the lab's .env (LAB_DELAY_MS, ...), read from the file itself where the script runs from the lab's
// checkout (k6 run k6/open.js: .env is beside k6/; compose's k6 mounts it there too); undefined where there is none
// (the runner's image of the scripts, the Kubernetes ConfigMap of k6/), where the runner or -e passes what is needed.
// Init context only (k6's open()).
export function labSetting(name) {
  let text;
  try {
    text = open('../.env');
  } catch (e) {
    return undefined;
  }
  const line = text.split('\n').map((l) => l.trim()).find((l) => l.startsWith(`${name}=`));
  return line === undefined ? undefined : line.substring(name.length + 1);
}

// Percentiles the lab reports; k6 computes only avg/min/med/max/p(90)/p(95) unless asked.
export const summaryTrendStats = ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(95)', 'p(99)'];

// ---- Counters the runner reads while the load runs (k6's REST API, GET /v1/metrics) ------------------------------
// k6's own statistics cover a whole run. The runner measures windows inside one long run instead, so that the load
// before a window and the window itself use the same users on the same connections, and nothing is aborted between
// them. It reads these cumulative counters at each edge of a window and subtracts: every latency falls into one
// logarithmic bucket (BUCKETS_PER_DECADE per factor of 10, from FIRST_BUCKET_MS: 2.3 % wide), so the window's percentiles come from
// the difference of two readings. The runner's LatencyBuckets uses the same arithmetic (a test holds the two equal).
export const FIRST_BUCKET_MS = 0.1;
export const BUCKETS_PER_DECADE = 100;
// Up to k6's request timeout (TIMEOUT below, 60 s): nothing the runner drives lasts longer, and the last bucket holds
// whatever does. Each bucket is a metric every user declares (see below): up to 5 minutes it was 649, 70 never used.
export const LAST_BUCKET_MS = 60000;
export const BUCKETS = 1 + Math.ceil(Math.log10(LAST_BUCKET_MS / FIRST_BUCKET_MS) * BUCKETS_PER_DECADE);

export function bucketOf(ms) {
  if (!(ms >= FIRST_BUCKET_MS)) return 0;
  return Math.min(BUCKETS - 1, 1 + Math.floor(Math.log10(ms / FIRST_BUCKET_MS) * BUCKETS_PER_DECADE));
}

const pad = (i) => String(i).padStart(4, '0');
// Only a run the runner controls (CONTROLLED=1: closed.js, read live at each window's edges) keeps the histogram. Every
// user declares each bucket's metric, and that is most of what a user costs k6: 2,000 users took 10.7 s and 3.8 GB to
// start with 649 buckets, 9.6 s and 3.3 GB with 583 (these are 579), 1.6 s and 0.5 GB with 10 (k6 v1.8.1, here). The
// open model, summarised by k6 itself, starts thousands of users per step and waited a minute for them before its
// first request. A controlled run that reports no percentiles (PERCENTILES=0: the runner's warm-up, which needs
// throughput and the compiler) leaves the histogram out too: 3,000 users then start in 2 s instead of 19 s. The
// calibration keeps it, for the histogram's heap slows the service beside k6 (docs/method.md).
const HISTOGRAM = __ENV.CONTROLLED === '1' && __ENV.PERCENTILES !== '0';
const latency = [];
if (HISTOGRAM) for (let i = 0; i < BUCKETS; i++) latency.push(new Counter(`lab_latency_${pad(i)}`));
const sent = new Counter('lab_sent');
// Requests answered (or failed): with lab_sent, what is in flight; the throughput, with or without the histogram.
const done = new Counter('lab_done');
// The sum of all latencies, for the exact mean (Little's law: users = throughput x mean response time).
const latencyTotal = new Counter('lab_latency_ms_total');
// Why a request failed, one counter per cause. k6's error codes: 1050 request timeout, 1211 dial timeout,
// 1212 connection refused, 1220 reset by peer, 1201 broken pipe; 12xx other TCP errors.
export const ERROR_CAUSES = ['timeout', 'refused', 'reset', 'network', 'http_4xx', 'http_500', 'http_502', 'http_503',
  'http_504', 'http_5xx'];
const errors = {};
ERROR_CAUSES.forEach((c) => { errors[c] = new Counter(`lab_error_${c}`); });

export function causeOf(res) {
  if (res.status === 200) return null;
  if (res.status >= 400 && res.status < 500) return 'http_4xx';
  if ([500, 502, 503, 504].includes(res.status)) return `http_${res.status}`;
  if (res.status >= 500) return 'http_5xx';
  const code = res.error_code;
  if (code === 1050 || code === 1211) return 'timeout';
  if (code === 1212) return 'refused';
  if (code === 1220 || code === 1201) return 'reset';
  return 'network';
}

// Counts a failed answer under its cause (lab_error_<cause>); nothing for a 200. For scripts that send on their own
// (burst.js's http.batch) rather than through callApi.
export function countError(res) {
  const cause = causeOf(res);
  if (cause) errors[cause].add(1);
  return cause;
}

export function callApi() {
  sent.add(1);
  const res = http.get(`${BASE_URL}${API_PATH}`, { timeout: TIMEOUT, responseType: 'none' });
  if (HISTOGRAM) latency[bucketOf(res.timings.duration)].add(1);
  latencyTotal.add(res.timings.duration);
  done.add(1);
  countError(res);
}

// With a settle phase, the statistics are those of the "measure" scenario only (a tagged sub-metric); a script may
// name another (burst.js: its burst's requests, not the ones that opened the connections). k6 keeps a sub-metric
// only where a threshold names it.
let measured = '{scenario:measure}';
export function measureOnly(selector) {
  measured = selector;
}

function metric(data, name) {
  return data.metrics[`${name}${measured}`] || data.metrics[name];
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

// The compact summary (SUMMARY_PATH), plus k6's full data beside it, plus one line on stdout.
// measureSeconds: the measure scenario's length, when a settle phase ran first (k6's own rate would divide by both).
export function summarize(data, scenario, measureSeconds) {
  const requests = count(data, 'http_reqs');
  const seconds = data.state && data.state.testRunDurationMs ? data.state.testRunDurationMs / 1000 : null;
  const failedMetric = metric(data, 'http_req_failed');
  const failed = failedMetric ? ((failedMetric.values || failedMetric).passes || 0) : 0;
  const errorCauses = {};
  ERROR_CAUSES.forEach((c) => {
    const n = count(data, `lab_error_${c}`);
    if (n > 0) errorCauses[c] = n;
  });
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
    error_causes: errorCauses,
    dropped_iterations: count(data, 'dropped_iterations'),
    max_vus: trend(data, 'vus_max', 'value'),
  };
  const causes = Object.entries(errorCauses).map(([c, n]) => `${c} ${n}`).join(', ');
  const line = `${VARIANT} ${scenario}: ${requests} requests, ${(summary.requests_per_second || 0).toFixed(1)} req/s, ` +
    `p50 ${fmt(summary.p50_ms)} ms, p99 ${fmt(summary.p99_ms)} ms, ${failed} errors${causes ? ` (${causes})` : ''}, ` +
    `${summary.dropped_iterations} dropped\n`;
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

// The burst (seed 004's shape): REQUESTS requests fired at once, and the time until the last one is answered.
//   k6 run k6/burst.js -e BASE_URL=http://127.0.0.1:8082 -e REQUESTS=10000 [-e SENDERS=4] [-e START_AT=<epoch ms>]
// A few sender users (SENDERS) each fire REQUESTS/SENDERS requests in one http.batch. k6 sends a batch over at most
// `batch` connections in all and `batchPerHost` per host (and keeps that many idle ones per user), both 20 and 6 by
// default: both are set to one sender's share, so that nothing is held back in k6 and every request is on the wire at
// once. Runs on k6 v1.x and v2.x: built-in modules only.
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import { sleep } from 'k6';
import { API_PATH, BASE_URL, countError, measureOnly, summarize, summaryTrendStats, VARIANT } from './lib.js';

// The runner passes all of them (load/Burst.java); by hand, seed 004's burst from four senders.
const REQUESTS = parseInt(__ENV.REQUESTS || '10000', 10);
const SENDERS = Math.max(1, Math.min(REQUESTS, parseInt(__ENV.SENDERS || '4', 10)));
// The common start, in epoch ms: the runner's, so that its metrics sampling starts with the burst; by hand, setup()
// takes LEAD_MS from now, time enough for every sender to open its connections first.
const START_AT = parseInt(__ENV.START_AT || '0', 10);
const LEAD_MS = parseInt(__ENV.LEAD_MS || '5000', 10);
// A sender that fires later than this after the common start is late: the burst was not all at once.
export const LATE_MS = 50;
const PER_SENDER = Math.ceil(REQUESTS / SENDERS);
// k6's patience with one request of the burst: the runner's (plan/Burst.java, 120 s, longer than the workers' 50 s
// at 1 s), so that a slow answer is measured, and one past it is a timeout counted under its cause.
const TIMEOUT = __ENV.TIMEOUT || '120s';
// The burst's requests carry this tag; the summary's statistics are theirs alone.
const BURST_TAG = { lab_phase: 'burst' };

// From the common start to the sender's last answer; its max over the senders is the burst's time to the last answer.
const lastAnswer = new Trend('lab_burst_last_answer_ms', true);
// How long after the common start each sender fired.
const fireLag = new Trend('lab_burst_fire_lag_ms', true);
const lateSenders = new Counter('lab_burst_late_senders');
const sent = new Counter('lab_burst_sent');
const preopenFailed = new Counter('lab_burst_preopen_failed');

export const options = {
  scenarios: {
    burst: { executor: 'per-vu-iterations', vus: SENDERS, iterations: 1, maxDuration: '10m' },
  },
  batch: PER_SENDER,
  batchPerHost: PER_SENDER,
  setupTimeout: '120s',
  tags: { variant: VARIANT, lab_scenario: `burst-${REQUESTS}` },
  summaryTrendStats,
  // Thresholds only so that the summary keeps the metrics (and k6 the burst's sub-metrics); they never fail a run.
  thresholds: {
    lab_burst_last_answer_ms: ['max>=0'],
    lab_burst_late_senders: ['count>=0'],
    'http_reqs{lab_phase:burst}': ['count>=0'],
    'http_req_duration{lab_phase:burst}': ['max>=0'],
    'http_req_failed{lab_phase:burst}': ['rate>=0'],
  },
};

export function setup() {
  return { startAt: START_AT > 0 ? START_AT : Date.now() + LEAD_MS };
}

function requests(url, n, tags) {
  const params = { timeout: TIMEOUT, responseType: 'none', tags };
  const list = [];
  for (let i = 0; i < n; i++) list.push(['GET', url, null, params]);
  return list;
}

export default function (data) {
  const mine = Math.min(PER_SENDER, REQUESTS - (__VU - 1) * PER_SENDER);
  if (mine <= 0) return;
  // Pre-open this sender's keep-alive connections with a batch of the same size to /q/health/live: it answers at once,
  // without the downstream's wait, so the connections are open (and idle, kept by batchPerHost) when the burst starts,
  // and the burst's time is the service's, not TCP's handshakes. The endpoint itself would hold each connection for
  // the wait and load the downstream before the burst; the health check touches neither the workers' request path
  // nor the downstream's.
  http.batch(requests(`${BASE_URL}/q/health/live`, mine, { lab_phase: 'preopen' })).forEach((r) => {
    if (r.status !== 200) preopenFailed.add(1);
  });
  const wait = data.startAt - Date.now();
  if (wait > 0) sleep(wait / 1000);
  const lag = Date.now() - data.startAt;
  fireLag.add(lag);
  if (lag > LATE_MS) lateSenders.add(1);
  sent.add(mine);
  const answers = http.batch(requests(`${BASE_URL}${API_PATH}`, mine, BURST_TAG));
  lastAnswer.add(Date.now() - data.startAt);
  answers.forEach(countError);
}

function metricValues(data, name) {
  const m = data.metrics[name];
  return m ? (m.values || m) : {};
}

export function handleSummary(data) {
  measureOnly('{lab_phase:burst}');
  const out = summarize(data, `burst-${REQUESTS}`);
  const path = __ENV.SUMMARY_PATH;
  if (path) {
    const summary = JSON.parse(out[path]);
    const lastMs = metricValues(data, 'lab_burst_last_answer_ms').max;
    // the burst's rate: its answers over the time to the last of them (k6's own would divide by its whole run)
    if (lastMs > 0) {
      summary.duration_seconds = lastMs / 1000;
      summary.requests_per_second = summary.requests / (lastMs / 1000);
    }
    summary.burst = {
      requests: REQUESTS,
      senders: SENDERS,
      sent: metricValues(data, 'lab_burst_sent').count || 0,
      time_to_last_answer_ms: metricValues(data, 'lab_burst_last_answer_ms').max ?? null,
      max_fire_lag_ms: metricValues(data, 'lab_burst_fire_lag_ms').max ?? null,
      late_senders: metricValues(data, 'lab_burst_late_senders').count || 0,
      preopen_failed: metricValues(data, 'lab_burst_preopen_failed').count || 0,
    };
    out[path] = JSON.stringify(summary, null, 2);
  }
  const b = metricValues(data, 'lab_burst_last_answer_ms');
  out.stdout += `${VARIANT} burst: ${REQUESTS} requests from ${SENDERS} senders, last answer after ` +
    `${b.max === undefined ? '-' : b.max.toFixed(0)} ms, ${metricValues(data, 'lab_burst_late_senders').count || 0} late senders\n`;
  return out;
}

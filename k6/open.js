// Open model: requests arrive at a fixed rate whatever the service does, step after step, so latency is measured
// without coordinated omission; a step the service cannot keep up with shows as dropped iterations.
//   k6 run k6/open.js -e BASE_URL=http://127.0.0.1:8082 -e RATES=250,500,1000,2000 -e STEP=15s
import { callApi, labSetting, summarize, summaryTrendStats, VARIANT } from './lib.js';

// The runner always passes all four (load/Loads.java: its plan's rates and step, and OpenWindow's users and latency).
// By hand, the same as the runner's defaults: the mistakes gallery's first rates (plan.Defaults.MISTAKES_OPEN_RATES
// goes on to 8000), its step (Defaults.OPEN_STEP, 6 s), the users it allows for fixed rates at the default levels
// (WindowRunner.openModelMaxUsers: twice the larger of 1,000 and the top level), and the latency it expects.
const RATES = (__ENV.RATES || '250,500,1000,2000').split(',').map((r) => parseInt(r, 10));
const STEP_SECONDS = parseInt((__ENV.STEP || '6s').replace(/s$/, ''), 10);
const MAX_VUS = parseInt(__ENV.MAX_VUS || '2000', 10);
// The latency to expect: k6 starts each step with enough users for its rate at that latency (Little's law), so
// that a slow downstream is not mistaken for a service that cannot keep up. The runner's: the window's delay plus
// the SLO's margin above it (plan.OpenModel.SLO_ABOVE_DELAY_MS, 100 ms); by hand, .env's delay (LAB_DELAY_MS) where
// the script can read it, else none.
const LATENCY_MS = parseInt(__ENV.LATENCY_MS || String(parseInt(labSetting('LAB_DELAY_MS') || '0', 10) + 100), 10);
const SCENARIO = `open-${RATES.join('-')}`;
// k6 gives every scenario users of its own, and a step overlaps the next for its graceful stop. A step's graceful
// stop is at most a step long, so at most two steps hold users at once, and each may hold half of MAX_VUS: k6 never
// holds more than MAX_VUS in all (each costs it about 0.2 MB; 1.8 MB with the live histogram of lib.js, when 18,000
// users once exhausted a 24 GB machine).
const STEP_VUS = Math.max(1, Math.floor(MAX_VUS / 2));

const scenarios = {};
RATES.forEach((rate, i) => {
  const last = i === RATES.length - 1;
  scenarios[`rate_${rate}`] = {
    executor: 'constant-arrival-rate',
    rate: rate,
    timeUnit: '1s',
    duration: `${STEP_SECONDS}s`,
    startTime: `${i * STEP_SECONDS}s`,
    preAllocatedVUs: Math.min(STEP_VUS, Math.max(10, Math.ceil(rate * LATENCY_MS / 1000 * 1.2))),
    maxVUs: STEP_VUS,
    // let in-flight requests finish (cutting them would count as errors), for up to a step, 5 s after the last
    gracefulStop: `${last ? 5 : Math.min(5, STEP_SECONDS)}s`,
    tags: { rate: String(rate) },
  };
});

const thresholds = { http_req_failed: ['rate<0.01'] };
// One sub-metric per step, so the summary carries latency per offered rate. Keyed on k6's own scenario tag: k6 tags
// dropped iterations with the scenario but not with a scenario's custom tags.
RATES.forEach((rate) => {
  thresholds[`http_req_duration{scenario:rate_${rate}}`] = ['p(99)<60000'];
  thresholds[`http_reqs{scenario:rate_${rate}}`] = ['count>=0'];
  thresholds[`dropped_iterations{scenario:rate_${rate}}`] = ['count>=0'];
});

export const options = { scenarios, tags: { variant: VARIANT, lab_scenario: SCENARIO }, summaryTrendStats, thresholds };

export default callApi;

export function handleSummary(data) {
  const out = summarize(data, SCENARIO);
  const path = __ENV.SUMMARY_PATH;
  if (path) {
    const steps = RATES.map((rate) => {
      const d = data.metrics[`http_req_duration{scenario:rate_${rate}}`];
      const r = data.metrics[`http_reqs{scenario:rate_${rate}}`];
      const dr = data.metrics[`dropped_iterations{scenario:rate_${rate}}`];
      const dv = d ? (d.values || d) : {};
      return {
        offered_rate: rate,
        requests: r ? (r.values || r).count : 0,
        achieved_rate: r ? (r.values || r).count / STEP_SECONDS : 0,
        p50_ms: dv['p(50)'] ?? null,
        p90_ms: dv['p(90)'] ?? null,
        p99_ms: dv['p(99)'] ?? null,
        max_ms: dv.max ?? null,
        dropped_iterations: dr ? (dr.values || dr).count : 0,
      };
    });
    const summary = JSON.parse(out[path]);
    summary.steps = steps;
    out[path] = JSON.stringify(summary, null, 2);
  }
  return out;
}

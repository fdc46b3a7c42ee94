// Closed model: a fixed number of users, each sending its next request when the last one answered
// (the published Spring/JMeter comparison used 100 and 500). Throughput is what the service sustains.
// An optional SETTLE phase at the same load comes first (connections opened, pools filled) and is left out of the
// statistics: they come from the "measure" scenario only.
//   k6 run k6/closed.js -e BASE_URL=http://127.0.0.1:8082 -e VUS=100 -e DURATION=30s -e SETTLE=3s
import { callApi, summarize, summaryTrendStats, VARIANT } from './lib.js';

// The runner always passes VUS and DURATION (the users of the window, and how long k6 may run before it drains it);
// by hand: the runner's first default level (plan.Defaults.LEVELS, 100 users), measured for 30 s after no settle.
const VUS = parseInt(__ENV.VUS || '100', 10);
const SCENARIO = `closed-${VUS}`;

const SETTLE_SECONDS = parseInt((__ENV.SETTLE || '0s').replace(/s$/, ''), 10);
const MEASURE_SECONDS = parseInt((__ENV.DURATION || '30s').replace(/s$/, ''), 10);

// CONTROLLED=1: the lab's runner drives this run through k6's REST API (k6 run --address ...): it reads the lab's
// counters at the edges of each window and ends the run by pausing it (no new requests; those in flight finish) and
// then stopping it. Only the externally-controlled executor can be paused once started.
const CONTROLLED = __ENV.CONTROLLED === '1';

const scenarios = {
  measure: CONTROLLED
    ? { executor: 'externally-controlled', vus: VUS, maxVUs: VUS, duration: `${MEASURE_SECONDS}s` }
    : {
      executor: 'constant-vus', vus: VUS, duration: `${MEASURE_SECONDS}s`, gracefulStop: '5s',
      startTime: `${SETTLE_SECONDS}s`,
    },
};
if (SETTLE_SECONDS > 0 && !CONTROLLED) {
  // Its last requests may end inside the measure phase; none are counted there (they carry scenario=settle).
  scenarios.settle = { executor: 'constant-vus', vus: VUS, duration: `${SETTLE_SECONDS}s`, gracefulStop: '2s' };
}

export const options = {
  scenarios,
  tags: { variant: VARIANT, lab_scenario: SCENARIO },
  summaryTrendStats,
  thresholds: {
    // Marks the run, never aborts it: a failed threshold is a finding, and the runner keeps the numbers.
    // Thresholds on the measure scenario also make k6 report its statistics separately from the settle phase.
    'http_req_failed{scenario:measure}': ['rate<0.01'],
    'http_req_duration{scenario:measure}': ['p(99)<2000'],
    'http_reqs{scenario:measure}': ['count>=0'],
  },
};

export default callApi;

export function handleSummary(data) {
  return summarize(data, SCENARIO, SETTLE_SECONDS > 0 ? MEASURE_SECONDS : null);
}

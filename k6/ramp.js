// Ramp: the arrival rate climbs steadily to MAX_RATE, to find where a variant saturates (latency turns up and
// iterations start to drop). Read it beside the variant's /q/metrics or in k6's own output.
//   k6 run k6/ramp.js -e BASE_URL=http://127.0.0.1:8082 -e MAX_RATE=5000 -e DURATION=60s
import { callApi, summarize, summaryTrendStats, VARIANT } from './lib.js';

// By hand only: the runner never runs this script, so its defaults are its own (no setting of .env among them).
const MAX_RATE = parseInt(__ENV.MAX_RATE || '5000', 10);

export const options = {
  scenarios: {
    ramp: {
      executor: 'ramping-arrival-rate',
      startRate: 50,
      timeUnit: '1s',
      preAllocatedVUs: 100,
      maxVUs: parseInt(__ENV.MAX_VUS || '1000', 10),
      stages: [{ target: MAX_RATE, duration: __ENV.DURATION || '60s' }],
    },
  },
  tags: { variant: VARIANT, lab_scenario: 'ramp' },
  summaryTrendStats,
  thresholds: { http_req_failed: ['rate<0.01'] },
};

export default callApi;

export function handleSummary(data) {
  return summarize(data, 'ramp');
}

// The network path from wherever k6 runs to the services, with no service work on it: the TCP connect inside each of
// SAMPLES requests, one after another, each on a new connection (k6's http_req_connecting). The runner uses it when
// k6 runs on another machine (--load-host), where a connect timed by the runner itself would cross another path.
//   k6 run k6/roundtrip.js -e BASE_URL=http://127.0.0.1:8081 -e SAMPLES=200
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { BASE_URL } from './lib.js';

// Connects that failed: the path is not there (any HTTP status counts as reached: only the connect is timed).
const unreached = new Counter('roundtrip_unreached');

// The runner passes SAMPLES (load.RoundTrip.SAMPLES, the same 200) and BASE_URL (lib.js' default by hand).
const SAMPLES = parseInt(__ENV.SAMPLES || '200', 10);

export const options = {
  scenarios: { connects: { executor: 'shared-iterations', vus: 1, iterations: SAMPLES + 1, maxDuration: '60s' } },
  noConnectionReuse: true,
  summaryTrendStats: ['med', 'p(99)', 'count'],
};

export default function () {
  const res = http.get(`${BASE_URL}/q/health/live`, { tags: { name: 'roundtrip' } });
  if (res.status === 0) unreached.add(1);
}

export function handleSummary(data) {
  const connecting = data.metrics.http_req_connecting.values;
  const out = {
    stdout: `round trip: median ${connecting.med.toFixed(3)} ms, p99 ${connecting['p(99)'].toFixed(3)} ms\n`,
  };
  if (__ENV.SUMMARY_PATH) {
    // the first connect resolves the name and warms the path: it is one of SAMPLES + 1, a p99 at most
    const failed = data.metrics.roundtrip_unreached ? data.metrics.roundtrip_unreached.values.count : 0;
    out[__ENV.SUMMARY_PATH] = JSON.stringify({ samples: connecting.count - 1, failed, median_ms: connecting.med,
      p99_ms: connecting['p(99)'] });
  }
  return out;
}

// Test helper: the throwaway nginx load balancer lives in scripts/lib (the benchmark starts one too); tests import it from here.
export { type NginxUpstream, startNginxUpstream } from '../../scripts/lib/nginx-upstream.ts';

/**
 * Node flags of every web process. A 16 MiB young generation (semi-space) means far fewer
 * scavenges under load: on the webhook benchmark it raised throughput and cut p99 (docs/PERFORMANCE.md).
 */
export const WEB_NODE_FLAGS = ['--max-semi-space-size=16'];

// A static export (out/), which the demo server serves next to its /agent.
const nextConfig = { output: 'export' };
export default nextConfig;

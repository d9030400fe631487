/** The q-quantile of a list of numbers (nearest rank; 0 for an empty list). Shared by the benches. */
function quantile (xs, q) {
  if (!xs.length) return 0
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]
}

module.exports = { quantile }

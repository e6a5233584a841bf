/** A ratio (0–1) as a percentage with one decimal: 0.8125 → "81.3%". */
export const formatPercent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

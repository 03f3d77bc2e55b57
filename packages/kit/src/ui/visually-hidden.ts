/**
 * Inline style of what screen readers announce and nothing shows (a loading message, a label the
 * layout does without).
 */
export const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

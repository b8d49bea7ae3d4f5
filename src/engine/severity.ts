/** Finding severities: a leaf module that the check contract, the options and the reporters all use. */

export type Severity = 'error' | 'warning' | 'info';

/** Every severity, most severe first: the order of report sections and of `--fail-on` levels. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** 0 for the most severe; a lower rank sorts first. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

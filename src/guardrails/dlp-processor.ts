// The name of the DLP processor, in a leaf module so policy validation and policy options can both use it without a cycle.

/** The DLP processor, whose options also come from a policy's `dlp` section. */
export const DLP_PROCESSOR = 'dlp_cloud';

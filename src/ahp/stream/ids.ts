/**
 * Ids of the AHP stream rules that library code outside this folder reports under (the
 * edit-context check of src/ahp/effects.ts). The rules themselves live one per file here.
 */

/** ahp/effect-not-advertised (effect-not-advertised.ts). */
export const EFFECT_NOT_ADVERTISED = 'ahp/effect-not-advertised';
/** ahp/modify-invalid (modify-invalid.ts). */
export const MODIFY_INVALID = 'ahp/modify-invalid';
/** ahp/return-invalid (return-invalid.ts). */
export const RETURN_INVALID = 'ahp/return-invalid';

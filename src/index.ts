/**
 * The package entry point (`exports["."]`): the library API. One `export ... from` line per
 * module; keep it a simple list.
 */
export { gateFormValues, type FormCaptureCeiling, type FormChoice, type FormFieldSpec, type FormFieldType, type FormValue, type FormValues } from './aep/forms.ts';
export { applyEffects, checkEditContext, checkEffects, hostContextOf, MODIFY_TARGETS, type EditContextIssue, type EffectRejection, type EffectsOutcome, type EffectsVerdict, type HostContext, type ModifyTarget, type RejectionCode, type TargetPermission } from './ahp/effects.ts';
export { answerShapeProblems, formAnswerProblems, isAnswerValue, type AnswerProblem } from './ahp/form-answer.ts';

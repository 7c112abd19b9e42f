/**
 * The package entry point (`exports["."]`): the library API. One `export ... from` line per
 * module; keep it a simple list.
 */
export { gateFormValues, type FormCaptureCeiling, type FormChoice, type FormFieldSpec, type FormFieldType, type FormValue, type FormValues } from './aep/forms.ts';

/** The detector classes the secret tests scan for (src/core/secret-classes.ts), listed once for every test. */
import type { DetectorClass } from '../src/core/secrets.ts';

/** Every secret class that reads free text: all but `url-credentials`, which reads a URL's userinfo. */
export const TEXT_SECRET_CLASSES: readonly DetectorClass[] = [
  'pem',
  'aws-access-key',
  'aws-key-id',
  'bearer',
  'authorization',
  'assignment',
  'jwt',
  'jwt-unsigned',
  'provider-token',
  'pin',
  'secret-name',
];

/** Every secret class (the PII classes apart). */
export const SECRET_CLASSES: readonly DetectorClass[] = [...TEXT_SECRET_CLASSES, 'url-credentials'];

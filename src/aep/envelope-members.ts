/** Which envelope members are metadata-level content (AEP-0001 §5.1, §5.4; AEP-0003 §9 item 2). */
/** Whether envelope member `k` is screened as metadata-level: `subject` and the extension attributes (AEP-0001 §5.4). */
export function screened(k: string): boolean {
  // a switch of literals compares interned names; the event's keys are interned by JSON.parse
  switch (k) {
    case 'aep':
    case 'id':
    case 'type':
    case 'time':
    case 'source':
    case 'agent':
    case 'session':
    case 'run':
    case 'step':
    case 'seq':
    case 'epoch':
    case 'cause':
    case 'severity':
    case 'capture':
    case 'traceparent':
    case 'data':
      return false;
    default:
      return true;
  }
}

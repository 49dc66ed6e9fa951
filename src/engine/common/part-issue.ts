// Why a part row cannot be cut, as every solver's problem mapping explains it: the record
// lists the row in unusableParts with this message (src/result/parts.ts).

export interface PartIssue {
  message: string;
  field: string;
  category: 'part' | 'stock' | 'group';
}

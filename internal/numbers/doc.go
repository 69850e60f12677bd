// Package numbers implements DynamoDB's Number type exactly: parsing with DynamoDB's syntax and
// ValidationException messages, the canonical text DynamoDB returns for a stored number,
// numeric comparison, exact addition and subtraction, and an order-preserving byte encoding for
// storage keys.
//
// A DynamoDB number has at most 38 significant digits and, unless it is zero, a magnitude from
// 1E-130 to 9.9999999999999999999999999999999999999E+125, positive or negative (developer guide,
// "Supported data types and naming rules", and "Quotas: Data types"). Such a number always fits
// a 128-bit coefficient and a small exponent, so [Dec] is a small value type: parsing, printing,
// comparing and most additions do not allocate.
//
// Errors are [*Error]; their Msg is the text DynamoDB puts in its ValidationException:
//
//	"The parameter cannot be converted to a numeric value: 1.2.3"
//	"Attempting to store more than 38 significant digits in a Number"
//	"Number overflow. Attempting to store a number with magnitude larger than supported range"
//	"Number underflow. Attempting to store a number with magnitude smaller than supported range"
package numbers

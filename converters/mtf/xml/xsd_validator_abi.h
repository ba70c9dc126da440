/* The C interface between mtf and its XSD validation module (mtf-xsd-validator.so, built
   from xsd_validator_module.cpp). The module alone links Xerces-C, whose 40-odd libraries
   (ICU, curl, gnutls, krb5...) would otherwise be bound at the start of every mtf command;
   mtf loads it with dlopen only when a document is validated (xml_validate.cpp). Plain C
   so that no exception or C++ object crosses the boundary. */
#ifndef MTF_XSD_VALIDATOR_ABI_H
#define MTF_XSD_VALIDATOR_ABI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever the signature or the meaning of mtf_xsd_validate changes. */
#define MTF_XSD_VALIDATOR_ABI_VERSION 1

enum MtfXsdOutcome {
  MTF_XSD_VALID = 0,
  MTF_XSD_DOCUMENT_INVALID = 1, /* the document breaks the schema or is not well-formed */
  MTF_XSD_SCHEMA_UNUSABLE = 2   /* the schema cannot be read or is not a valid XSD */
};

/* Called once before a non-zero outcome is returned: `place` is "line L, column C" or "",
   `message` what is wrong. Both strings live only during the call. */
typedef void (*MtfXsdReport)(void* context, const char* place, const char* message);

/* Returns MTF_XSD_VALIDATOR_ABI_VERSION. */
typedef int (*MtfXsdAbiVersion)(void);
int mtf_xsd_validator_abi_version(void);

/* Validates `document` against the XSD `schema` (both local paths); never throws. */
typedef int (*MtfXsdValidate)(const char* document, const char* schema, MtfXsdReport report,
                              void* context);
int mtf_xsd_validate(const char* document, const char* schema, MtfXsdReport report, void* context);

#ifdef __cplusplus
}
#endif

#endif

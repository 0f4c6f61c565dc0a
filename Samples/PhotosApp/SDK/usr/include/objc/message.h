/* Message sending (<objc/message.h>). As in Apple's header without
   OBJC_OLD_DISPATCH_PROTOTYPES, objc_msgSend has no prototype: cast it to
   the method's type before calling it. */
#ifndef _OBJC_MESSAGE_H_
#define _OBJC_MESSAGE_H_

#include <objc/objc.h>

void objc_msgSend(void);

#endif
